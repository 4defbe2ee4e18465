#!/usr/bin/env bash
# make lint: the checks the pre-commit hooks run (.pre-commit-config.yaml), without pre-commit.
#   clang-format  the lines changed against the base (default main; LINT_BASE=rev) in the C
#                 files, so that the tree is formatted as it is touched, never all at once;
#                 not in the generated ones (the hook's exclude list)
#   ruff          python/ tools/ tests/python (configuration in pyproject.toml)
#   fresh         the generated files equal their generators' output: src/x64/*.S
#                 (tools/gen/x64.py), bench/moduli.h (tools/gen/moduli.py), the curve
#                 constants of src/ec/curves.c (tools/gen/ec_consts.py), P-521's mulx product
#                 of src/ec/bmi2/p521_mul.h (tools/gen/p521_mulx.py)
# Usage: scripts/lint.sh [format|ruff|fresh]...  (no argument: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
CLANG_FORMAT_DIFF=${CLANG_FORMAT_DIFF:-clang-format-diff}
RUFF=${RUFF:-ruff}
[ -x .venv/bin/ruff ] && [ "$RUFF" = ruff ] && RUFF=.venv/bin/ruff
fail=0

# The generated C files the format step skips: the clang-format hook's `exclude` in
# .pre-commit-config.yaml (one list for both), a regular expression on the path.
GENERATED_C=$(sed -n '/id: clang-format$/,/- id:/s/^ *exclude: *//p' .pre-commit-config.yaml)
[ -n "$GENERATED_C" ] || { echo "lint: no clang-format exclude in .pre-commit-config.yaml" >&2; exit 2; }

changed_c() {
    local base=${LINT_BASE:-main}
    git rev-parse -q --verify "$base" >/dev/null || base=HEAD
    { git diff --name-only --diff-filter=ACMR "$(git merge-base "$base" HEAD)" -- '*.c' '*.h'
      git diff --name-only --diff-filter=ACMR -- '*.c' '*.h'; } | sort -u | { grep -Ev "$GENERATED_C" || true; } |
        while read -r f; do [ -f "$f" ] && echo "$f"; done
}

lint_format() {
    local files base out
    files=$(changed_c)
    [ -z "$files" ] && { echo "lint: clang-format: no changed C files"; return 0; }
    base=${LINT_BASE:-main}
    git rev-parse -q --verify "$base" >/dev/null || base=HEAD
    # only the lines the change touches, with renames detected (git mv), so that a moved
    # file is checked on its edited lines, not as a new file (clang-format-diff, shipped
    # with clang-format); the generated files are left out by -regex (matched whole)
    out=$(git diff -M -U0 --no-color "$(git merge-base "$base" HEAD)" -- '*.c' '*.h' |
        "$CLANG_FORMAT_DIFF" -p1 -regex "(?!${GENERATED_C#^}).*\.[ch]" \
            -binary "$(command -v "$CLANG_FORMAT")" 2>&1) || true
    if printf '%s\n' "$out" | grep -q '^---'; then
        printf '%s\n' "$out"
        echo "lint: clang-format: the changed lines above are not in the house style" \
            "(git clang-format $base fixes them)" >&2
        fail=1
    else
        echo "lint: clang-format: changed lines of $(echo "$files" | wc -l) C files formatted"
    fi
}

lint_ruff() {
    "$RUFF" check python tools tests/python || fail=1
}

lint_fresh() {
    local tmp
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    cmake -DPYTHON="$PY" -DSRC="$PWD" -DTMP="$tmp/x64" -P tests/c/x64_fresh.cmake || fail=1
    cmake -DPYTHON="$PY" -DSRC="$PWD" -DTMP="$tmp/ec" -P tests/c/ec_fresh.cmake || fail=1
    "$PY" tools/gen/moduli.py -o "$tmp/moduli.h" >/dev/null
    if ! cmp -s "$tmp/moduli.h" bench/moduli.h; then
        echo "lint: bench/moduli.h differs from tools/gen/moduli.py's output: run" \
            "\`python3 tools/gen/moduli.py -o bench/moduli.h\` and commit" >&2
        fail=1
    else
        echo "lint: bench/moduli.h up to date"
    fi
}

steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(format ruff fresh)
for s in "${steps[@]}"; do
    case $s in
    format) lint_format ;;
    ruff) lint_ruff ;;
    fresh) lint_fresh ;;
    *) echo "lint: unknown step '$s' (format, ruff, fresh)" >&2; exit 2 ;;
    esac
done
exit $fail
