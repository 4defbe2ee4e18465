// tabai._core: the nanobind binding of the C library (see python/tabai/__init__.py for the
// public names and python/tabai/_core.pyi for the typed signatures).
//
// Integers cross the boundary as little-endian byte images of Python ints (CPython's own
// converters, no per-digit Python calls). Every status code of the C library is mapped to a
// Python exception in one place (raise_status). Operands of the field objects are reduced
// mod p by Python ints first (only when they are negative or >= p), so the C kernels always
// see reduced input.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "tabai.h"
}

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using Limbs = std::vector<uint64_t>;

// Exponents longer than this are processed in chunks of EXP_CHUNK bits by the binding
// (the C powmod functions take at most 2 * 64 * TABAI_MAX_LIMBS exponent bits).
constexpr size_t EXP_CHUNK = 64 * TABAI_MAX_LIMBS;
constexpr size_t MAX_BITS = 64 * TABAI_MAX_LIMBS;

// ---------------------------------------------------------------------------------------
// Errors: the one place where tabai_status becomes a Python exception.
// ---------------------------------------------------------------------------------------
[[noreturn]] void raise_status(tabai_status s, const char *what) {
    std::string msg = std::string(what) + ": " + tabai_status_str(s);
    switch (s) {
    case TABAI_ERR_NOINV:
    case TABAI_ERR_MODULUS:
    case TABAI_ERR_SIZE:
    case TABAI_ERR_RANGE:
        throw nb::value_error(msg.c_str());
    case TABAI_ERR_ALLOC:
        throw std::bad_alloc();
    default:
        throw std::runtime_error(msg);
    }
}

inline void check(tabai_status s, const char *what) {
    if (s != TABAI_OK) raise_status(s, what);
}

// ---------------------------------------------------------------------------------------
// Python int <-> limbs.
// ---------------------------------------------------------------------------------------

// A new reference to h as an exact int: ints (and bool) as they are, other objects through
// __index__ (numpy integers, ...). Floats, strings, None: TypeError.
nb::object as_int(nb::handle h, const char *fn, const char *arg) {
    PyObject *o = h.ptr();
    if (PyLong_Check(o)) return nb::borrow(h);
    if (!PyFloat_Check(o) && PyIndex_Check(o)) {
        PyObject *r = PyNumber_Index(o);
        if (!r) throw nb::python_error();
        return nb::steal(r);
    }
    std::string msg = std::string(fn) + "() argument '" + arg + "' must be int, not " +
                      Py_TYPE(o)->tp_name;
    throw nb::type_error(msg.c_str());
}

bool is_negative(nb::handle v) {
    static PyObject *zero = PyLong_FromLong(0); // kept for the life of the process
    int r = PyObject_RichCompareBool(v.ptr(), zero, Py_LT);
    if (r < 0) throw nb::python_error();
    return r == 1;
}

bool greater_equal(nb::handle a, nb::handle b) {
    int r = PyObject_RichCompareBool(a.ptr(), b.ptr(), Py_GE);
    if (r < 0) throw nb::python_error();
    return r == 1;
}

bool equals_small(nb::handle v, long x) {
    nb::object o = nb::steal(PyLong_FromLong(x));
    int r = PyObject_RichCompareBool(v.ptr(), o.ptr(), Py_EQ);
    if (r < 0) throw nb::python_error();
    return r == 1;
}

// Number of significant bits of limbs a[0..n).
size_t limbs_bits(const uint64_t *a, size_t n) {
    while (n > 0 && a[n - 1] == 0) n--;
    if (n == 0) return 0;
    return 64 * (n - 1) + (64 - (size_t)__builtin_clzll(a[n - 1]));
}

void bytes_to_limbs(uint64_t *r, const unsigned char *le, size_t nlimbs) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(r, le, nlimbs * 8);
#else
    for (size_t i = 0; i < nlimbs; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | le[8 * i + j];
        r[i] = w;
    }
#endif
}

// Limbs of a non-negative int v (at least one limb; no upper limit).
Limbs int_to_limbs(nb::handle v) {
    PyObject *o = v.ptr();
#if PY_VERSION_HEX >= 0x030D0000
    const int flags = Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                      Py_ASNATIVEBYTES_REJECT_NEGATIVE;
    Py_ssize_t need = PyLong_AsNativeBytes(o, nullptr, 0, flags);
    if (need < 0) throw nb::python_error();
    size_t nl = ((size_t)need + 7) / 8;
    if (nl == 0) nl = 1;
    std::vector<unsigned char> buf(nl * 8);
    if (PyLong_AsNativeBytes(o, buf.data(), (Py_ssize_t)buf.size(), flags) < 0)
        throw nb::python_error();
#else
    size_t bits = _PyLong_NumBits(o);
    if (bits == (size_t)-1 && PyErr_Occurred()) throw nb::python_error();
    size_t nl = (bits + 63) / 64;
    if (nl == 0) nl = 1;
    std::vector<unsigned char> buf(nl * 8);
    if (_PyLong_AsByteArray((PyLongObject *)o, buf.data(), buf.size(), 1, 0) < 0)
        throw nb::python_error();
#endif
    Limbs r(nl);
    bytes_to_limbs(r.data(), buf.data(), nl);
    return r;
}

// v (0 <= v < 2^(64n), n <= TABAI_MAX_LIMBS) into exactly n limbs, without allocating.
void int_to_limbs_n(uint64_t *r, nb::handle v, size_t n) {
    unsigned char buf[8 * TABAI_MAX_LIMBS];
#if PY_VERSION_HEX >= 0x030D0000
    const int flags = Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                      Py_ASNATIVEBYTES_REJECT_NEGATIVE;
    Py_ssize_t need = PyLong_AsNativeBytes(v.ptr(), buf, (Py_ssize_t)(8 * n), flags);
    if (need < 0) throw nb::python_error();
    if ((size_t)need > 8 * n) throw nb::value_error("integer too large for the modulus size");
#else
    if (_PyLong_AsByteArray((PyLongObject *)v.ptr(), buf, 8 * n, 1, 0) < 0)
        throw nb::python_error();
#endif
    bytes_to_limbs(r, buf, n);
}

nb::object limbs_to_int(const uint64_t *a, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const unsigned char *le = reinterpret_cast<const unsigned char *>(a);
#else
    std::vector<unsigned char> buf(n * 8);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 8; j++) buf[8 * i + j] = (unsigned char)(a[i] >> (8 * j));
    const unsigned char *le = buf.data();
#endif
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *r = PyLong_FromUnsignedNativeBytes(le, n * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject *r = _PyLong_FromByteArray(le, n * 8, 1, 0);
#endif
    if (!r) throw nb::python_error();
    return nb::steal(r);
}

// v mod p as an int in [0, p): Python's % only when v is negative or >= p.
nb::object reduce(nb::handle v, nb::handle p) {
    if (is_negative(v) || greater_equal(v, p)) {
        PyObject *r = PyNumber_Remainder(v.ptr(), p.ptr());
        if (!r) throw nb::python_error();
        return nb::steal(r);
    }
    return nb::borrow(v);
}

// |v| for an int v.
nb::object absolute(nb::handle v) {
    PyObject *r = PyNumber_Absolute(v.ptr());
    if (!r) throw nb::python_error();
    return nb::steal(r);
}

// A short description of an int for error messages: the value if small, else its size.
std::string describe(nb::handle v) {
    nb::object a = absolute(v);
    Limbs l = int_to_limbs(a);
    size_t bits = limbs_bits(l.data(), l.size());
    if (bits <= 128) return nb::cast<std::string>(nb::repr(v));
    return std::string(is_negative(v) ? "a negative " : "a ") + std::to_string(bits) + "-bit int";
}

// The bit length of a modulus (an int >= 1), or ValueError above MAX_BITS.
size_t modulus_bits(nb::handle m, const char *fn) {
    size_t bits;
#if PY_VERSION_HEX >= 0x030D0000
    Limbs ml = int_to_limbs(m);
    bits = limbs_bits(ml.data(), ml.size());
#else
    bits = _PyLong_NumBits(m.ptr());
    if (bits == (size_t)-1 && PyErr_Occurred()) throw nb::python_error();
#endif
    if (bits > MAX_BITS) {
        std::string msg = std::string(fn) + "(): modulus of " + std::to_string(bits) +
                          " bits is too large (tabai supports up to " +
                          std::to_string(MAX_BITS) + " bits)";
        throw nb::value_error(msg.c_str());
    }
    return bits;
}

// ---------------------------------------------------------------------------------------
// The two fields behind one interface (used by the templates below).
// ---------------------------------------------------------------------------------------
struct MontOps {
    using Ctx = tabai_mont;
    static tabai_status init(Ctx *c, const uint64_t *p, size_t n) { return tabai_mont_init(c, p, n); }
    static tabai_status pow(const Ctx *c, uint64_t *r, const uint64_t *b, const uint64_t *e,
                            size_t ebits, uint64_t *s, size_t sl, bool vartime) {
        return vartime ? tabai_mont_powmod_vartime(c, r, b, e, ebits, s, sl)
                       : tabai_mont_powmod(c, r, b, e, ebits, s, sl);
    }
    // r = a * b (normal form in and out): into Montgomery form, then one product.
    static void mul(const Ctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
        uint64_t t[TABAI_MAX_LIMBS];
        check(tabai_mont_to(c, t, a), "mul");
        check(tabai_mont_mul(c, r, t, b), "mul");
    }
    static void sqr(const Ctx *c, uint64_t *r, const uint64_t *a) { mul(c, r, a, a); }
    // r = a^(2^k) * t for normal-form a, t: k squarings in Montgomery form.
    static void sqr_k_mul(const Ctx *c, uint64_t *r, const uint64_t *a, size_t k, const uint64_t *t) {
        uint64_t x[TABAI_MAX_LIMBS];
        check(tabai_mont_to(c, x, a), "pow");
        for (size_t i = 0; i < k; i++) check(tabai_mont_sqr(c, x, x), "pow");
        check(tabai_mont_mul(c, r, x, t), "pow");
    }
    static void add(const Ctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
        check(tabai_mont_add(c, r, a, b), "add");
    }
    static void sub(const Ctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
        check(tabai_mont_sub(c, r, a, b), "sub");
    }
    static void neg(const Ctx *c, uint64_t *r, const uint64_t *a) { check(tabai_mont_neg(c, r, a), "neg"); }
};

struct OhtaOps {
    using Ctx = tabai_ohta;
    static tabai_status init(Ctx *c, const uint64_t *p, size_t n) { return tabai_ohta_init(c, p, n); }
    static tabai_status pow(const Ctx *c, uint64_t *r, const uint64_t *b, const uint64_t *e,
                            size_t ebits, uint64_t *s, size_t sl, bool vartime) {
        return vartime ? tabai_ohta_powmod_vartime(c, r, b, e, ebits, s, sl)
                       : tabai_ohta_powmod(c, r, b, e, ebits, s, sl);
    }
    static void mul(const Ctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
        check(tabai_ohta_mul(c, r, a, b), "mul");
    }
    static void sqr(const Ctx *c, uint64_t *r, const uint64_t *a) { check(tabai_ohta_sqr(c, r, a), "sqr"); }
    static void sqr_k_mul(const Ctx *c, uint64_t *r, const uint64_t *a, size_t k, const uint64_t *t) {
        uint64_t x[TABAI_MAX_LIMBS];
        std::memcpy(x, a, c->n * 8);
        for (size_t i = 0; i < k; i++) check(tabai_ohta_sqr(c, x, x), "pow");
        check(tabai_ohta_mul(c, r, x, t), "pow");
    }
    // Ohta has no add/sub in the C API: limb add/sub plus one masked correction.
    // r = a + b mod p, a, b < p. Constant time.
    static void add(const Ctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
        const size_t n = c->n;
        uint64_t s[TABAI_MAX_LIMBS], t[TABAI_MAX_LIMBS];
        uint64_t cy = tabai_add_n(s, a, b, n);
        uint64_t bw = tabai_sub_n(t, s, c->p, n);
        // a + b >= p iff the sum carried out or the subtraction did not borrow
        tabai_cnd_select_n(r, cy | (bw ^ 1), t, s, n);
    }
    // r = a - b mod p, a, b < p. Constant time.
    static void sub(const Ctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
        const size_t n = c->n;
        uint64_t d[TABAI_MAX_LIMBS], t[TABAI_MAX_LIMBS];
        uint64_t bw = tabai_sub_n(d, a, b, n);
        tabai_add_n(t, d, c->p, n);
        tabai_cnd_select_n(r, bw, t, d, n);
    }
    static void neg(const Ctx *c, uint64_t *r, const uint64_t *a) {
        uint64_t z[TABAI_MAX_LIMBS] = {0};
        sub(c, r, z, a);
    }
};

// A limb buffer that is wiped (tabai_wipe) when it dies: powmod scratch holds powers of b.
struct WipedLimbs {
    std::vector<uint64_t> v;
    explicit WipedLimbs(size_t n) : v(n) {}
    ~WipedLimbs() { tabai_wipe(v.data(), v.size() * sizeof(uint64_t)); }
    uint64_t *data() { return v.data(); }
    size_t size() const { return v.size(); }
};

// r = b^e mod p for reduced b (n limbs), e of ebits bits (any length). Exponents beyond
// what one C call takes are split into EXP_CHUNK-bit chunks from the top:
// acc = acc^(2^EXP_CHUNK) * b^chunk. The chunking depends only on ebits.
template <class Ops>
void pow_any(const typename Ops::Ctx *c, uint64_t *r, const uint64_t *b, const uint64_t *e,
             size_t ebits, bool vartime) {
    const size_t n = c->n;
    if (ebits <= 2 * EXP_CHUNK) {
        WipedLimbs scratch(tabai_powmod_scratch_limbs(n, ebits));
        check(Ops::pow(c, r, b, e, ebits, scratch.data(), scratch.size(), vartime), "pow");
        return;
    }
    WipedLimbs scratch(tabai_powmod_scratch_limbs(n, EXP_CHUNK));
    const size_t climbs = EXP_CHUNK / 64;
    const size_t nch = (ebits + EXP_CHUNK - 1) / EXP_CHUNK;
    uint64_t acc[TABAI_MAX_LIMBS], t[TABAI_MAX_LIMBS];
    check(Ops::pow(c, acc, b, e + (nch - 1) * climbs, ebits - (nch - 1) * EXP_CHUNK,
                   scratch.data(), scratch.size(), vartime),
          "pow");
    for (size_t i = nch - 1; i-- > 0;) {
        check(Ops::pow(c, t, b, e + i * climbs, EXP_CHUNK, scratch.data(), scratch.size(), vartime),
              "pow");
        Ops::sqr_k_mul(c, acc, acc, EXP_CHUNK, t);
    }
    std::memcpy(r, acc, n * 8);
}

// r = a^-1 mod p (a < p, n limbs) or ValueError(msg).
void inverse(uint64_t *r, const uint64_t *a, const uint64_t *p, size_t n, const char *msg) {
    tabai_status s = tabai_inv_vartime(r, a, p, n);
    if (s == TABAI_ERR_NOINV) throw nb::value_error(msg);
    check(s, "inv");
}

// ---------------------------------------------------------------------------------------
// Field objects.
// ---------------------------------------------------------------------------------------
template <class Ops>
struct Field {
    typename Ops::Ctx ctx;
    nb::object p;
    const char *name;

    Field(nb::handle p_in, const char *cls, bool odd_only) : name(cls) {
        p = as_int(p_in, cls, "p");
        if (!PyLong_CheckExact(p.ptr())) p = nb::steal(PyNumber_Long(p.ptr())); // bool, subclasses
        if (!p.is_valid()) throw nb::python_error();
        bool bad = is_negative(p) || equals_small(p, 0) || equals_small(p, 1) ||
                   (odd_only && !(int_to_limbs(p)[0] & 1));
        if (bad) {
            std::string msg = std::string(cls) + "(): modulus must be " +
                              (odd_only ? "odd and >= 3" : ">= 2") + ", got " + describe(p);
            throw nb::value_error(msg.c_str());
        }
        modulus_bits(p, cls);
        Limbs pl = int_to_limbs(p);
        check(Ops::init(&ctx, pl.data(), pl.size()), cls);
    }

    void load(uint64_t *r, nb::handle v, const char *fn, const char *arg) const {
        nb::object x = reduce(as_int(v, fn, arg), p);
        int_to_limbs_n(r, x, ctx.n);
    }
    nb::object out(const uint64_t *r) const { return limbs_to_int(r, ctx.n); }

    nb::object mul(nb::handle a, nb::handle b) const {
        uint64_t x[TABAI_MAX_LIMBS], y[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        load(x, a, "mul", "a");
        load(y, b, "mul", "b");
        Ops::mul(&ctx, r, x, y);
        return out(r);
    }
    nb::object sqr(nb::handle a) const {
        uint64_t x[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        load(x, a, "sqr", "a");
        Ops::sqr(&ctx, r, x);
        return out(r);
    }
    nb::object add(nb::handle a, nb::handle b) const {
        uint64_t x[TABAI_MAX_LIMBS], y[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        load(x, a, "add", "a");
        load(y, b, "add", "b");
        Ops::add(&ctx, r, x, y);
        return out(r);
    }
    nb::object sub(nb::handle a, nb::handle b) const {
        uint64_t x[TABAI_MAX_LIMBS], y[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        load(x, a, "sub", "a");
        load(y, b, "sub", "b");
        Ops::sub(&ctx, r, x, y);
        return out(r);
    }
    nb::object neg(nb::handle a) const {
        uint64_t x[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        load(x, a, "neg", "a");
        Ops::neg(&ctx, r, x);
        return out(r);
    }
    nb::object inv(nb::handle a) const {
        uint64_t x[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        load(x, a, "inv", "a");
        inverse(r, x, ctx.p, ctx.n, "inv(): a is not invertible modulo p");
        return out(r);
    }
    nb::object pow(nb::handle a, nb::handle e_in, bool vartime) const {
        const char *fn = vartime ? "pow_vartime" : "pow";
        uint64_t x[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        load(x, a, fn, "a");
        nb::object e = as_int(e_in, fn, "e");
        if (is_negative(e)) {
            uint64_t xi[TABAI_MAX_LIMBS];
            inverse(xi, x, ctx.p, ctx.n, "base is not invertible for the given modulus");
            std::memcpy(x, xi, ctx.n * 8);
            e = absolute(e);
        }
        Limbs el = int_to_limbs(e);
        size_t ebits = limbs_bits(el.data(), el.size());
        {
            nb::gil_scoped_release release;
            pow_any<Ops>(&ctx, r, x, el.data(), ebits, vartime);
        }
        return out(r);
    }
};

using MontField = Field<MontOps>;
using OhtaField = Field<OhtaOps>;

struct Montgomery : MontField {
    explicit Montgomery(nb::handle p) : MontField(p, "Montgomery", true) {}
    nb::object inv_prime(nb::handle a) const {
        uint64_t x[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
        load(x, a, "inv_prime", "a");
        tabai_status s = tabai_mont_inv_prime(&ctx, r, x);
        if (s == TABAI_ERR_NOINV) throw nb::value_error("inv_prime(): a is 0 modulo p");
        check(s, "inv_prime");
        return out(r);
    }
};

struct Ohta : OhtaField {
    explicit Ohta(nb::handle p) : OhtaField(p, "Ohta", false) {}
};

// ---------------------------------------------------------------------------------------
// Module-level powmod.
// ---------------------------------------------------------------------------------------
nb::object powmod_impl(nb::handle b_in, nb::handle e_in, nb::handle m_in, bool vartime) {
    const char *fn = vartime ? "powmod_vartime" : "powmod";
    nb::object b = as_int(b_in, fn, "b");
    nb::object e = as_int(e_in, fn, "e");
    nb::object m = as_int(m_in, fn, "m");
    if (is_negative(m) || equals_small(m, 0)) {
        std::string msg = std::string(fn) + "(): modulus must be >= 1";
        throw nb::value_error(msg.c_str());
    }
    modulus_bits(m, fn);
    if (equals_small(m, 1)) return nb::steal(PyLong_FromLong(0));
    Limbs ml = int_to_limbs(m);
    const size_t n = ml.size();
    uint64_t x[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
    int_to_limbs_n(x, reduce(b, m), n);
    if (is_negative(e)) {
        uint64_t xi[TABAI_MAX_LIMBS];
        inverse(xi, x, ml.data(), n, "base is not invertible for the given modulus");
        std::memcpy(x, xi, n * 8);
        e = absolute(e);
    }
    Limbs el = int_to_limbs(e);
    size_t ebits = limbs_bits(el.data(), el.size());
    if (ml[0] & 1) {
        std::unique_ptr<tabai_mont> c(new tabai_mont);
        check(tabai_mont_init(c.get(), ml.data(), n), fn);
        nb::gil_scoped_release release;
        pow_any<MontOps>(c.get(), r, x, el.data(), ebits, vartime);
    } else {
        std::unique_ptr<tabai_ohta> c(new tabai_ohta);
        check(tabai_ohta_init(c.get(), ml.data(), n), fn);
        nb::gil_scoped_release release;
        pow_any<OhtaOps>(c.get(), r, x, el.data(), ebits, vartime);
    }
    return limbs_to_int(r, n);
}

nb::dict cpu_info() {
    static const struct {
        unsigned bit;
        const char *name;
    } feats[] = {{TABAI_CPU_SSE2, "sse2"},         {TABAI_CPU_BMI2, "bmi2"},
                 {TABAI_CPU_ADX, "adx"},           {TABAI_CPU_AVX2, "avx2"},
                 {TABAI_CPU_FMA, "fma"},           {TABAI_CPU_AVX512F, "avx512f"},
                 {TABAI_CPU_AVX512VL, "avx512vl"}, {TABAI_CPU_AVX512BW, "avx512bw"},
                 {TABAI_CPU_AVX512IFMA, "avx512ifma"}};
    unsigned f = tabai_cpu_features();
    nb::list names;
    for (const auto &ft : feats)
        if (f & ft.bit) names.append(ft.name);
    nb::list tiers;
    int native = (int)tabai_cpu_native_tier();
    for (int t = 0; t <= native; t++) tiers.append(tabai_tier_name((tabai_tier)t));
    nb::dict d;
    d["brand"] = tabai_cpu_brand();
    d["features"] = names;
    d["native"] = tabai_tier_name(tabai_cpu_native_tier());
    d["tier"] = tabai_cpu_name();
    d["tiers"] = tiers;
    return d;
}

std::string set_tier(const std::string &name) {
    int t = tabai_tier_parse(name.c_str());
    if (t < 0) {
        std::string msg = "set_tier(): unknown tier '" + name +
                          "' (expected generic, bmi2, avx2, avx512, ifma or native)";
        throw nb::value_error(msg.c_str());
    }
    check(tabai_cpu_set_tier((tabai_tier)t), "set_tier");
    return tabai_cpu_name();
}

}  // namespace

// Docstrings: the public wording lives here (they show in help()), python/tabai/*.pyi match.
static const char *POWMOD_DOC = R"(b**e mod m with the results and exceptions of the builtin pow(b, e, m) for every m >= 1.

Args:
    b: int (any sign and size; reduced mod m first).
    e: int (any sign and size; e < 0 uses the inverse of b mod m).
    m: int, 1 <= m < 2**8192.
Returns:
    int in [0, m).
Raises:
    TypeError: an argument is not an int (float, str, ...).
    ValueError: m <= 0, m >= 2**8192, or e < 0 and b is not invertible mod m
        ("base is not invertible for the given modulus").
Time:
    Constant in b and e for a given bit length of e and a given m: fixed-window
    exponentiation with masked table reads, Montgomery products for odd m, Ohta products
    for even m. Not constant time: the conversion of Python ints, the reduction of
    b < 0 or b >= m, and the inverse taken for e < 0 (binary extended Euclid).
)";

static const char *POWMOD_VARTIME_DOC = R"(b**e mod m like powmod(), by sliding-window exponentiation: faster, but its time depends
on e. Only for public exponents (RSA verification, Fermat tests, ...).

Args, Returns, Raises: as powmod().
Time: variable in e (and b).
)";

static const char *CPU_DOC = R"(The CPU as tabai sees it.

Returns:
    dict with keys
      "brand":    CPU brand string,
      "features": list of feature names the CPU and OS support (sse2, bmi2, adx, avx2,
                  fma, avx512f, avx512vl, avx512bw, avx512ifma),
      "native":   the highest dispatch tier this CPU supports,
      "tier":     the tier in use (native capped by TABAI_CPU or set_tier()),
      "tiers":    every tier from generic up to native.
)";

static const char *SET_TIER_DOC = R"(Caps the dispatch tier of this process, like the environment variable TABAI_CPU.

Args:
    name: "generic", "bmi2", "avx2", "avx512", "ifma" or "native"; never goes above what
        the CPU supports.
Returns:
    the name of the tier now in use.
Raises:
    ValueError: unknown name.
Objects created before keep the kernels they were created with. Not thread safe against
concurrent creation of objects.
)";

static const char *FIELD_OPS_DOC = R"(
Every method takes Python ints of any sign and size (reduced mod p first; that reduction
by Python ints is not constant time) and returns an int in [0, p).
Raises TypeError for a non-int argument. Methods are constant time in the reduced
operands (and in e for a given bit length of e) except inv() and the *_vartime ones.
Attributes: p (the modulus), bits (its bit length), limbs (its length in 64-bit limbs),
tier (the dispatch tier whose kernels the object uses).
)";

template <class T>
static void def_field_methods(nb::class_<T> &c) {
    c.def("mul", [](const T &f, nb::handle a, nb::handle b) { return f.mul(a, b); }, nb::sig("def mul(self, a: int, b: int) -> int"), "a"_a.none(), "b"_a.none(),
          "a*b mod p. Constant time.")
        .def("sqr", [](const T &f, nb::handle a) { return f.sqr(a); }, nb::sig("def sqr(self, a: int) -> int"), "a"_a.none(),
             "a*a mod p. Constant time.")
        .def("add", [](const T &f, nb::handle a, nb::handle b) { return f.add(a, b); }, nb::sig("def add(self, a: int, b: int) -> int"), "a"_a.none(), "b"_a.none(),
             "a+b mod p. Constant time.")
        .def("sub", [](const T &f, nb::handle a, nb::handle b) { return f.sub(a, b); }, nb::sig("def sub(self, a: int, b: int) -> int"), "a"_a.none(), "b"_a.none(),
             "a-b mod p. Constant time.")
        .def("neg", [](const T &f, nb::handle a) { return f.neg(a); }, nb::sig("def neg(self, a: int) -> int"), "a"_a.none(),
             "-a mod p. Constant time.")
        .def("inv", [](const T &f, nb::handle a) { return f.inv(a); }, nb::sig("def inv(self, a: int) -> int"), "a"_a.none(),
             "a**-1 mod p for any modulus (binary extended Euclid).\n"
             "Raises ValueError if gcd(a, p) != 1. Variable time: not for secret a.")
        .def("pow", [](const T &f, nb::handle a, nb::handle e) { return f.pow(a, e, false); },nb::sig("def pow(self, a: int, e: int) -> int"), 
             "a"_a.none(), "e"_a.none(),
             "a**e mod p, e any int (e < 0 through the inverse of a).\n"
             "Raises ValueError if e < 0 and a is not invertible. Constant time in a and e for\n"
             "a given bit length of e (fixed window, masked table reads); the inverse for\n"
             "e < 0 is not.")
        .def("pow_vartime", [](const T &f, nb::handle a, nb::handle e) { return f.pow(a, e, true); },nb::sig("def pow_vartime(self, a: int, e: int) -> int"), 
             "a"_a.none(), "e"_a.none(),
             "As pow(), sliding window: variable time in e, for "
             "public exponents only.")
        .def_prop_ro("p", [](const T &f) { return f.p; }, "The modulus (int).")
        .def_prop_ro("bits", [](const T &f) { return f.ctx.bits; }, "Bit length of p.")
        .def_prop_ro("limbs", [](const T &f) { return f.ctx.n; }, "Length of p in 64-bit limbs.")
        .def_prop_ro("tier",
                     [](const T &f) { return std::string(tabai_tier_name((tabai_tier)f.ctx.tier)); },
                     "Dispatch tier of the kernels this object uses.")
        .def("__repr__", [](const T &f) {
            nb::object hex = nb::steal(PyNumber_ToBase(f.p.ptr(), 16));
            if (!hex.is_valid()) throw nb::python_error();
            return std::string(f.name) + "(" + nb::cast<std::string>(hex) + ")";
        });
}

// ---------------------------------------------------------------------------------------
// Batches (issue 4): lists of ints in, a list of ints out; the C batch API does the rest
// (groups of 8 through the AVX-512 IFMA kernels at tier ifma, else the scalar loop).
// ---------------------------------------------------------------------------------------
static std::vector<nb::object> seq_ints(nb::handle seq, const char *fn, const char *arg) {
    nb::object fast = nb::steal(PySequence_Fast(seq.ptr(), "not a sequence"));
    if (!fast.is_valid()) {
        PyErr_Clear();
        std::string msg = std::string(fn) + "() argument '" + arg + "' must be a sequence of ints";
        throw nb::type_error(msg.c_str());
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast.ptr());
    std::vector<nb::object> out;
    out.reserve((size_t)len);
    for (Py_ssize_t i = 0; i < len; i++)
        out.push_back(as_int(nb::handle(PySequence_Fast_GET_ITEM(fast.ptr(), i)), fn, arg));
    return out;
}

// The moduli as n-limb arrays (n = the longest), each odd and >= 3.
static size_t batch_moduli(const std::vector<nb::object> &ms, std::vector<uint64_t> &ml,
                           const char *fn) {
    size_t n = 1;
    for (const nb::object &mm : ms) {
        if (is_negative(mm) || !greater_equal(mm, nb::int_(3))) {
            std::string msg = std::string(fn) + "(): every modulus must be odd and >= 3";
            throw nb::value_error(msg.c_str());
        }
        size_t b = modulus_bits(mm, fn);
        n = std::max(n, (b + 63) / 64);
    }
    ml.assign(ms.size() * n, 0);
    for (size_t i = 0; i < ms.size(); i++) {
        int_to_limbs_n(&ml[i * n], ms[i], n);
        if (!(ml[i * n] & 1)) {
            std::string msg = std::string(fn) + "(): every modulus must be odd and >= 3";
            throw nb::value_error(msg.c_str());
        }
    }
    return n;
}

static std::vector<nb::object> powmod_batch(nb::handle bs_in, nb::handle es_in, nb::handle ms_in) {
    const char *fn = "powmod_batch";
    std::vector<nb::object> bs = seq_ints(bs_in, fn, "bases"), es = seq_ints(es_in, fn, "exps"),
                            ms = seq_ints(ms_in, fn, "mods");
    if (bs.size() != es.size() || bs.size() != ms.size())
        throw nb::value_error("powmod_batch(): bases, exps and mods must have the same length");
    const size_t count = bs.size();
    std::vector<uint64_t> ml;
    const size_t n = batch_moduli(ms, ml, fn);
    size_t ebits = 0;
    std::vector<Limbs> el(count);
    for (size_t i = 0; i < count; i++) {
        if (is_negative(es[i]))
            throw nb::value_error("powmod_batch(): exponents must be >= 0");
        el[i] = int_to_limbs(es[i]);
        ebits = std::max(ebits, limbs_bits(el[i].data(), el[i].size()));
    }
    if (ebits > 2 * MAX_BITS) throw nb::value_error("powmod_batch(): exponent too large");
    const size_t en = std::max<size_t>(1, (ebits + 63) / 64);
    std::vector<uint64_t> bl(count * n), rl(count * n), eall(count * en, 0);
    std::vector<uint64_t *> rp(count);
    std::vector<const uint64_t *> bp(count), ep(count), mp(count);
    for (size_t i = 0; i < count; i++) {
        int_to_limbs_n(&bl[i * n], reduce(bs[i], ms[i]), n);
        std::memcpy(&eall[i * en], el[i].data(), std::min(en, el[i].size()) * 8);
        rp[i] = &rl[i * n];
        bp[i] = &bl[i * n];
        ep[i] = &eall[i * en];
        mp[i] = &ml[i * n];
    }
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_powmod_batch(count, rp.data(), bp.data(), ep.data(), ebits, mp.data(), n);
    }
    check(s, fn);
    std::vector<nb::object> out;
    out.reserve(count);
    for (size_t i = 0; i < count; i++) out.push_back(limbs_to_int(rp[i], n));
    return out;
}

// The same on numpy arrays of 64-bit limbs (row i = operation i, least significant limb
// first): the rows are read in place (zero copy for C-contiguous uint64 arrays) and the
// result is a new (count, n) array.
using LimbRows = nb::ndarray<const uint64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

static nb::ndarray<nb::numpy, uint64_t, nb::ndim<2>> powmod_batch_limbs(LimbRows b, LimbRows e,
                                                                         LimbRows m) {
    const size_t count = m.shape(0), n = m.shape(1), en = e.shape(1);
    if (b.shape(0) != count || e.shape(0) != count || b.shape(1) != n)
        throw nb::value_error("powmod_batch_limbs(): b and m must have the same shape (count, n) "
                              "and e count rows");
    if (n == 0 || n > TABAI_MAX_LIMBS)
        throw nb::value_error("powmod_batch_limbs(): rows of 1 to 128 limbs");
    if (en > 2 * TABAI_MAX_LIMBS) throw nb::value_error("powmod_batch_limbs(): exponent too large");
    uint64_t *out = new uint64_t[count * n ? count * n : 1];
    nb::capsule owner(out, [](void *q) noexcept { delete[] static_cast<uint64_t *>(q); });
    std::vector<uint64_t *> rp(count);
    std::vector<const uint64_t *> bp(count), ep(count), mp(count);
    for (size_t i = 0; i < count; i++) {
        rp[i] = out + i * n;
        bp[i] = b.data() + i * n;
        ep[i] = e.data() + i * en;
        mp[i] = m.data() + i * n;
    }
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_powmod_batch(count, rp.data(), bp.data(), en ? ep.data() : nullptr, 64 * en,
                               mp.data(), n);
    }
    check(s, "powmod_batch_limbs");
    size_t shape[2] = {count, n};
    return nb::ndarray<nb::numpy, uint64_t, nb::ndim<2>>(out, 2, shape, owner);
}

static const char *POWMOD_BATCH_LIMBS_DOC = R"(powmod_batch on numpy arrays of 64-bit limbs, without Python ints.

Args:
    b: uint64 array of shape (count, n): the bases, row i least significant limb first.
    e: uint64 array of shape (count, k): the exponents; all 64*k bits are processed.
    m: uint64 array of shape (count, n): the moduli, odd and >= 3.
Returns:
    a new uint64 array of shape (count, n): row i = b[i]**e[i] mod m[i].
Raises:
    TypeError: not 2-d arrays (other integer dtypes and orders are converted: a copy).
    ValueError: shapes that do not match, n outside 1..128, an even or < 3 modulus, b[i] >= m[i].
C-contiguous uint64 arrays are read in place (no copy); constant time in b and e.)";

// The key's storage is wiped (tabai_wipe) before it is freed.
struct RSAKeyDelete {
    void operator()(tabai_rsa_key *k) const {
        tabai_wipe(k, sizeof *k);
        delete k;
    }
};
using RSAKeyPtr = std::unique_ptr<tabai_rsa_key, RSAKeyDelete>;

struct RSAKey {
    RSAKeyPtr key{new tabai_rsa_key};
    nb::object n_int;
};

static void rsa_init(RSAKey *self, nb::handle p_in, nb::handle q_in, nb::handle dp_in,
                     nb::handle dq_in, nb::handle qinv_in) {
    const char *fn = "RSAKey";
    nb::object p = as_int(p_in, fn, "p"), q = as_int(q_in, fn, "q"), dp = as_int(dp_in, fn, "dp"),
               dq = as_int(dq_in, fn, "dq"), qinv = as_int(qinv_in, fn, "qinv");
    for (nb::handle v : {p.ptr(), q.ptr(), dp.ptr(), dq.ptr(), qinv.ptr()})
        if (is_negative(v)) throw nb::value_error("RSAKey(): parameters must be >= 0");
    size_t pb = nb::cast<size_t>(p.attr("bit_length")());
    size_t qb = nb::cast<size_t>(q.attr("bit_length")());
    if (pb != qb || pb % 64 != 0 || pb == 0 || 2 * pb > MAX_BITS)
        throw nb::value_error("RSAKey(): p and q must have the same bit length, a multiple of 64 "
                              "(as in 2048-, 3072- and 4096-bit keys), at most 4096 bits each");
    const size_t h = pb / 64;
    struct Params { // the private parameters as limbs, wiped on every way out
        uint64_t P[TABAI_MAX_LIMBS], Q[TABAI_MAX_LIMBS], DP[TABAI_MAX_LIMBS],
            DQ[TABAI_MAX_LIMBS], QI[TABAI_MAX_LIMBS];
        ~Params() { tabai_wipe(this, sizeof *this); }
    } prm;
    uint64_t *P = prm.P, *Q = prm.Q, *DP = prm.DP, *DQ = prm.DQ, *QI = prm.QI;
    auto fit = [&](uint64_t *r, nb::handle v, const char *what) {
        if (nb::cast<size_t>(v.attr("bit_length")()) > 64 * h) {
            std::string msg = std::string("RSAKey(): ") + what + " out of range";
            throw nb::value_error(msg.c_str());
        }
        int_to_limbs_n(r, v, h);
    };
    fit(P, p, "p");
    fit(Q, q, "q");
    fit(DP, dp, "dp");
    fit(DQ, dq, "dq");
    fit(QI, qinv, "qinv");
    RSAKeyPtr key(new tabai_rsa_key);
    tabai_status s = tabai_rsa_key_init(key.get(), P, Q, DP, DQ, QI, h);
    if (s == TABAI_ERR_MODULUS)
        throw nb::value_error("RSAKey(): p and q must be odd with their top bit set");
    if (s == TABAI_ERR_RANGE)
        throw nb::value_error("RSAKey(): dp, dq or qinv out of range, or qinv*q != 1 mod p");
    check(s, fn);
    nb::object n_int = limbs_to_int(key->N, key->n);
    new (self) RSAKey{std::move(key), n_int};
}

static std::vector<nb::object> rsa_private_batch(const RSAKey &k, nb::handle cs_in) {
    const char *fn = "RSAKey.private_batch";
    std::vector<nb::object> cs = seq_ints(cs_in, fn, "messages");
    const size_t count = cs.size(), n = k.key->n;
    std::vector<uint64_t> cl(count * n), ml(count * n);
    std::vector<uint64_t *> mp(count);
    std::vector<const uint64_t *> cp(count);
    std::vector<const tabai_rsa_key *> kp(count, k.key.get());
    for (size_t i = 0; i < count; i++) {
        if (is_negative(cs[i]) || greater_equal(cs[i], k.n_int))
            throw nb::value_error("RSAKey.private_batch(): every message must be in [0, n)");
        int_to_limbs_n(&cl[i * n], cs[i], n);
        cp[i] = &cl[i * n];
        mp[i] = &ml[i * n];
    }
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_rsa_private_batch(count, mp.data(), cp.data(), kp.data());
    }
    check(s, fn);
    std::vector<nb::object> out;
    out.reserve(count);
    for (size_t i = 0; i < count; i++) out.push_back(limbs_to_int(mp[i], n));
    return out;
}

static const char *POWMOD_BATCH_DOC = R"([pow(b, e, m) for b, e, m in zip(bases, exps, mods)], constant time, many at once.

At tier ifma the exponentiations run 8 at a time in the AVX-512 IFMA kernels (radix 2**52,
one per vector lane, seed 001); below it, or for moduli above 4096 bits, one at a time.

Args:
    bases: ints (reduced mod their modulus first; negative ones too).
    exps: ints >= 0; all are processed with the bit length of the longest.
    mods: odd ints >= 3, below 2**8192; each operation its own modulus.
Returns:
    list of ints, result i in [0, mods[i]).
Raises:
    TypeError: not sequences of ints.
    ValueError: different lengths, an even or < 3 modulus, a negative exponent.
Time: constant in the bases and exponents for a given longest exponent length.)";

static const char *RSAKEY_DOC = R"(An RSA private key in CRT form, for many private-key operations at once.

RSAKey(p, q, dp, dq, qinv): the primes (same bit length, a multiple of 64, top bit set, as
every 2048-, 3072- and 4096-bit key has), dp = d mod (p-1), dq = d mod (q-1),
qinv = q**-1 mod p. With the `cryptography` package:
    nums = key.private_numbers()
    k = tabai.RSAKey(nums.p, nums.q, nums.dmp1, nums.dmq1, nums.iqmp)
Raises ValueError for parameters that do not make a key (checked: qinv*q == 1 mod p,
dp < p, dq < q). The key setup is variable time in p and q; the operations are constant time.)";

NB_MODULE(_core, m) {
    m.doc() = "tabai._core: bindings of the tabai C library (use the tabai package).";

    m.def(
        "powmod", [](nb::handle b, nb::handle e, nb::handle mm) { return powmod_impl(b, e, mm, false); },
        "b"_a.none(), "e"_a.none(), "m"_a.none(),
        nb::sig("def powmod(b: int, e: int, m: int) -> int"), POWMOD_DOC);
    m.def(
        "powmod_vartime",
        [](nb::handle b, nb::handle e, nb::handle mm) { return powmod_impl(b, e, mm, true); },
        "b"_a.none(), "e"_a.none(), "m"_a.none(),
        nb::sig("def powmod_vartime(b: int, e: int, m: int) -> int"), POWMOD_VARTIME_DOC);
    m.def("cpu", &cpu_info, nb::sig("def cpu() -> dict[str, object]"), CPU_DOC);
    m.def("set_tier", &set_tier, "name"_a, nb::sig("def set_tier(name: str) -> str"), SET_TIER_DOC);
    m.def("c_version", []() { return std::string(tabai_version()); },
          "Version string of the C library.");
    m.attr("MAX_BITS") = MAX_BITS;
    m.def("powmod_batch", &powmod_batch, "bases"_a, "exps"_a, "mods"_a,
          nb::sig("def powmod_batch(bases: Sequence[int], exps: Sequence[int], "
                  "mods: Sequence[int]) -> list[int]"),
          POWMOD_BATCH_DOC);
    m.def("powmod_batch_limbs", &powmod_batch_limbs, "b"_a, "e"_a, "m"_a,
          POWMOD_BATCH_LIMBS_DOC);
    nb::class_<RSAKey>(m, "RSAKey", RSAKEY_DOC)
        .def("__init__", &rsa_init, "p"_a, "q"_a, "dp"_a, "dq"_a, "qinv"_a)
        .def("private_batch", &rsa_private_batch, "messages"_a,
             nb::sig("def private_batch(self, messages: Sequence[int]) -> list[int]"),
             "[m**d mod n for m in messages] by CRT, 8 at a time at tier ifma (raw RSA, no "
             "padding, no blinding). Raises ValueError for a message outside [0, n).")
        .def("private", [](const RSAKey &k, nb::handle c) {
                 nb::list one;
                 one.append(c);
                 return rsa_private_batch(k, one)[0];
             }, "c"_a, nb::sig("def private(self, c: int) -> int"),
             "c**d mod n for one message (as private_batch).")
        .def_prop_ro("n", [](const RSAKey &k) { return k.n_int; }, "The public modulus n = p*q.")
        .def_prop_ro("bits", [](const RSAKey &k) { return 64 * k.key->n; },
                     "Bit length of n.");

    static const std::string mont_doc =
        std::string("Arithmetic modulo an odd p >= 3 (p < 2**8192) with "
                    "Montgomery products\n(word-serial CIOS, R = 2**(64*limbs)); values stay "
                    "in Montgomery form inside a call.\nRaises ValueError for an even p or "
                    "p < 3 or p >= 2**8192, TypeError for a non-int.\n") +
        FIELD_OPS_DOC;
    nb::class_<Montgomery> mc(m, "Montgomery", mont_doc.c_str());
    mc.def(nb::init<nb::handle>(), "p"_a.none(), nb::sig("def __init__(self, p: int) -> None"));
    def_field_methods(mc);
    mc.def("inv_prime", &Montgomery::inv_prime, nb::sig("def inv_prime(self, a: int) -> int"), "a"_a.none(),
           "a**-1 mod p by Fermat (a**(p-2)), constant time. Only an "
           "inverse if p is prime\n(not checked). Raises ValueError if a is 0 mod p (that "
           "fact is revealed; nothing else).");

    static const std::string ohta_doc =
        std::string("Arithmetic modulo any p >= 2 (p < 2**8192), even ones "
                    "included, with Ohta's\nBarrett-like reduction (K = floor(R**2 / p), "
                    "truncated product, two masked subtractions).\nRaises ValueError for "
                    "p < 2 or p >= 2**8192, TypeError for a non-int.\n") +
        FIELD_OPS_DOC;
    nb::class_<Ohta> oc(m, "Ohta", ohta_doc.c_str());
    oc.def(nb::init<nb::handle>(), "p"_a.none(), nb::sig("def __init__(self, p: int) -> None"));
    def_field_methods(oc);
}
