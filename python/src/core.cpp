// tabai._core: the nanobind binding of the C library (see python/tabai/__init__.py for the
// public names and python/tabai/_core.pyi for the typed signatures).
//
// Integers cross the boundary as little-endian byte images of Python ints (CPython's own
// converters, no per-digit Python calls). Every status code of the C library is mapped to a
// Python exception in one place (raise_status). Operands of the field objects are reduced
// mod p by Python ints first (only when they are negative or >= p), so the C kernels always
// see reduced input.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
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
#include "tabai_ec.h"
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
    case TABAI_ERR_RSA_SIZE:
    case TABAI_ERR_RSA_E:
    case TABAI_ERR_RSA_PQ:
    case TABAI_ERR_RSA_DP:
    case TABAI_ERR_RSA_DQ:
    case TABAI_ERR_RSA_QINV:
    case TABAI_ERR_RSA_D:
        throw nb::value_error(msg.c_str());
    case TABAI_ERR_CURVE:
    case TABAI_ERR_POINT:
    case TABAI_ERR_SCALAR:
    case TABAI_ERR_SIGNATURE:
        throw nb::value_error(msg.c_str());
    case TABAI_ERR_RANDOM:
        PyErr_SetString(PyExc_OSError, msg.c_str());
        throw nb::python_error();
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
    static void add(const Ctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
        check(tabai_ohta_add(c, r, a, b), "add");
    }
    static void sub(const Ctx *c, uint64_t *r, const uint64_t *a, const uint64_t *b) {
        check(tabai_ohta_sub(c, r, a, b), "sub");
    }
    static void neg(const Ctx *c, uint64_t *r, const uint64_t *a) { check(tabai_ohta_neg(c, r, a), "neg"); }
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
        tabai_status s;
        {
            nb::gil_scoped_release release; // a full exponentiation: tens of microseconds and up
            s = tabai_mont_inv_prime(&ctx, r, x);
        }
        if (s == TABAI_ERR_NOINV) throw nb::value_error("inv_prime(): a is 0 modulo p");
        check(s, "inv_prime");
        return out(r);
    }
    nb::object pow2_vartime(nb::handle a1_in, nb::handle e1_in, nb::handle a2_in,
                            nb::handle e2_in) const;
};

struct Ohta : OhtaField {
    explicit Ohta(nb::handle p) : OhtaField(p, "Ohta", false) {}
};

// g^e mod p for one fixed g: the comb table is made once (tabai_mont_powmod_base_table).
struct FixedBase : MontField {
    std::vector<uint64_t> table;
    size_t ebits;
    unsigned rows;
    FixedBase(nb::handle p_in, nb::handle g_in, size_t ebits_in, nb::handle rows_in)
        : MontField(p_in, "FixedBase", true), ebits(ebits_in) {
        if (ebits < 1 || ebits > 2 * EXP_CHUNK)
            throw nb::value_error("FixedBase(): ebits must be in [1, 16384]");
        rows = rows_in.is_none() ? tabai_powmod_base_rows(ebits) : nb::cast<unsigned>(rows_in);
        if (rows < 1 || rows > TABAI_POWMOD_BASE_MAX_ROWS)
            throw nb::value_error("FixedBase(): rows must be in [1, 6]");
        uint64_t x[TABAI_MAX_LIMBS];
        load(x, g_in, "FixedBase", "g");
        table.resize(tabai_powmod_base_table_limbs(ctx.n, rows));
        nb::gil_scoped_release release;
        check(tabai_mont_powmod_base_table(&ctx, table.data(), table.size(), x, ebits, rows),
              "FixedBase");
    }
    nb::object pow(nb::handle e_in) const {
        nb::object e = as_int(e_in, "pow", "e");
        if (is_negative(e) || limbs_bits(int_to_limbs(e).data(), int_to_limbs(e).size()) > ebits)
            throw nb::value_error("FixedBase.pow(): e must be in [0, 2**ebits)");
        uint64_t el[2 * TABAI_MAX_LIMBS] = {0}, r[TABAI_MAX_LIMBS];
        int_to_limbs_n(el, e, (ebits + 63) / 64);
        {
            nb::gil_scoped_release release;
            check(tabai_mont_powmod_base(&ctx, r, el, ebits, table.data(), table.size(), rows), "pow");
        }
        tabai_wipe(el, sizeof el);
        return out(r);
    }
};

// ---------------------------------------------------------------------------------------
// Module-level powmod.
// ---------------------------------------------------------------------------------------
// x = b mod m (ml: the limbs of m), inverted for a negative e (pow's rule), and e = |e|
void pow_base(uint64_t *x, const nb::object &b, nb::object &e, const nb::object &m, Limbs &ml) {
    const size_t n = ml.size();
    int_to_limbs_n(x, reduce(b, m), n);
    if (is_negative(e)) {
        uint64_t xi[TABAI_MAX_LIMBS];
        inverse(xi, x, ml.data(), n, "base is not invertible for the given modulus");
        std::memcpy(x, xi, n * 8);
        e = absolute(e);
    }
}

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
    pow_base(x, b, e, m, ml);
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

// ---------------------------------------------------------------------------------------
// Module-level double exponentiation a1^e1 * a2^e2 mod m (public exponents).
// ---------------------------------------------------------------------------------------
tabai_status pow2_ctx(const tabai_mont *c, uint64_t *r, const uint64_t *a1, const uint64_t *e1,
                      size_t b1, const uint64_t *a2, const uint64_t *e2, size_t b2, uint64_t *s,
                      size_t sl) {
    return tabai_mont_powmod2_vartime(c, r, a1, e1, b1, a2, e2, b2, s, sl);
}
tabai_status pow2_ctx(const tabai_ohta *c, uint64_t *r, const uint64_t *a1, const uint64_t *e1,
                      size_t b1, const uint64_t *a2, const uint64_t *e2, size_t b2, uint64_t *s,
                      size_t sl) {
    return tabai_ohta_powmod2_vartime(c, r, a1, e1, b1, a2, e2, b2, s, sl);
}

// r = a1^e1 * a2^e2 mod p for reduced a1, a2: one C call, or for exponents longer than it
// takes, two pow_any and a product.
template <class Ops>
void pow2_any(const typename Ops::Ctx *c, uint64_t *r, const uint64_t *a1, const Limbs &e1,
              size_t b1, const uint64_t *a2, const Limbs &e2, size_t b2) {
    if (b1 <= 2 * EXP_CHUNK && b2 <= 2 * EXP_CHUNK) {
        WipedLimbs scratch(tabai_powmod2_scratch_limbs(c->n, b1, b2));
        check(pow2_ctx(c, r, a1, e1.data(), b1, a2, e2.data(), b2, scratch.data(), scratch.size()),
              "powmod2_vartime");
        return;
    }
    uint64_t t1[TABAI_MAX_LIMBS], t2[TABAI_MAX_LIMBS];
    pow_any<Ops>(c, t1, a1, e1.data(), b1, true);
    pow_any<Ops>(c, t2, a2, e2.data(), b2, true);
    Ops::mul(c, r, t1, t2);
}

nb::object Montgomery::pow2_vartime(nb::handle a1_in, nb::handle e1_in, nb::handle a2_in,
                                    nb::handle e2_in) const {
    const char *fn = "pow2_vartime";
    nb::object e1 = as_int(e1_in, fn, "e1"), e2 = as_int(e2_in, fn, "e2");
    Limbs pl = int_to_limbs(p);
    uint64_t x1[TABAI_MAX_LIMBS], x2[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
    pow_base(x1, as_int(a1_in, fn, "a1"), e1, p, pl);
    pow_base(x2, as_int(a2_in, fn, "a2"), e2, p, pl);
    Limbs l1 = int_to_limbs(e1), l2 = int_to_limbs(e2);
    const size_t b1 = limbs_bits(l1.data(), l1.size()), b2 = limbs_bits(l2.data(), l2.size());
    {
        nb::gil_scoped_release release;
        pow2_any<MontOps>(&ctx, r, x1, l1, b1, x2, l2, b2);
    }
    return out(r);
}

nb::object powmod2_impl(nb::handle a1_in, nb::handle e1_in, nb::handle a2_in, nb::handle e2_in,
                        nb::handle m_in) {
    const char *fn = "powmod2_vartime";
    nb::object a1 = as_int(a1_in, fn, "a1"), e1 = as_int(e1_in, fn, "e1");
    nb::object a2 = as_int(a2_in, fn, "a2"), e2 = as_int(e2_in, fn, "e2");
    nb::object m = as_int(m_in, fn, "m");
    if (is_negative(m) || equals_small(m, 0))
        throw nb::value_error("powmod2_vartime(): modulus must be >= 1");
    modulus_bits(m, fn);
    if (equals_small(m, 1)) return nb::steal(PyLong_FromLong(0));
    Limbs ml = int_to_limbs(m);
    const size_t n = ml.size();
    uint64_t x1[TABAI_MAX_LIMBS], x2[TABAI_MAX_LIMBS], r[TABAI_MAX_LIMBS];
    pow_base(x1, a1, e1, m, ml);
    pow_base(x2, a2, e2, m, ml);
    Limbs l1 = int_to_limbs(e1), l2 = int_to_limbs(e2);
    const size_t b1 = limbs_bits(l1.data(), l1.size()), b2 = limbs_bits(l2.data(), l2.size());
    if (ml[0] & 1) {
        std::unique_ptr<tabai_mont> c(new tabai_mont);
        check(tabai_mont_init(c.get(), ml.data(), n), fn);
        nb::gil_scoped_release release;
        pow2_any<MontOps>(c.get(), r, x1, l1, b1, x2, l2, b2);
    } else {
        std::unique_ptr<tabai_ohta> c(new tabai_ohta);
        check(tabai_ohta_init(c.get(), ml.data(), n), fn);
        nb::gil_scoped_release release;
        pow2_any<OhtaOps>(c.get(), r, x1, l1, b1, x2, l2, b2);
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

static const char *POWMOD2_VARTIME_DOC = R"(a1**e1 * a2**e2 mod m, the results and exceptions of
pow(a1, e1, m) * pow(a2, e2, m) % m, by one simultaneous exponentiation (Straus's trick with
interleaved sliding windows: one shared chain of squarings), as DSA verification needs.
Only for public exponents.

Args:
    a1, a2: any ints (reduced mod m first).
    e1, e2: any ints; a negative exponent uses the inverse of its base mod m.
    m: 1 <= m < 2**8192.
Returns:
    int in [0, m).
Raises:
    TypeError: an argument is not an int.
    ValueError: m <= 0, m >= 2**8192, or a negative exponent whose base is not invertible.
Time: variable in e1 and e2 (and the bases).
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
// Batches: lists of ints in, a list of ints out; the C batch API does the rest
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

// threads=None: every core (0 for the C library); an int >= 1 otherwise.
static unsigned threads_arg(nb::handle t, const char *fn) {
    if (t.is_none()) return 0;
    nb::object v = as_int(t, fn, "threads");
    long long x = nb::cast<long long>(v);
    if (x < 1 || x > 256) {
        std::string msg = std::string(fn) + "(): threads must be None or 1..256";
        throw nb::value_error(msg.c_str());
    }
    return (unsigned)x;
}

static std::vector<nb::object> powmod_batch(nb::handle bs_in, nb::handle es_in, nb::handle ms_in,
                                            nb::handle threads_in) {
    const char *fn = "powmod_batch";
    const unsigned threads = threads_arg(threads_in, fn);
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
        s = tabai_powmod_batch(count, rp.data(), bp.data(), ep.data(), ebits, mp.data(), n, threads);
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
                                                                         LimbRows m,
                                                                         nb::handle threads_in) {
    const unsigned threads = threads_arg(threads_in, "powmod_batch_limbs");
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
                               mp.data(), n, threads);
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

// ---------------------------------------------------------------------------------------
// RSA: the raw operations of the C library (padding lives in python/tabai/rsa.py).
// ---------------------------------------------------------------------------------------
struct RSAPublicKey {
    std::unique_ptr<tabai_rsa_public_key> key{new tabai_rsa_public_key};
    nb::object n_int;
};

struct RSAKey {
    // the key lives on the heap, is wiped by tabai_rsa_key_clear when the object dies
    std::unique_ptr<tabai_rsa_key, void (*)(tabai_rsa_key *)> key{nullptr, nullptr};
    nb::object n_int;
};

static void rsa_key_free(tabai_rsa_key *k) {
    tabai_rsa_key_clear(k);
    delete k;
}

// v as exactly n limbs; ValueError naming the parameter if negative or too long.
static void rsa_param(uint64_t *r, nb::handle v_in, size_t n, const char *fn, const char *what) {
    nb::object v = as_int(v_in, fn, what);
    if (is_negative(v) || nb::cast<size_t>(v.attr("bit_length")()) > 64 * n) {
        std::string msg = std::string(fn) + "(): " + what + " out of range";
        throw nb::value_error(msg.c_str());
    }
    int_to_limbs_n(r, v, n);
}

static size_t rsa_limbs(nb::handle n_in, const char *fn) {
    nb::object n = as_int(n_in, fn, "n");
    if (is_negative(n)) throw nb::value_error((std::string(fn) + "(): n must be > 0").c_str());
    size_t bits = nb::cast<size_t>(n.attr("bit_length")());
    if (bits < 1024 || bits > MAX_BITS) {
        std::string msg = std::string(fn) + "(): " + tabai_status_str(TABAI_ERR_RSA_SIZE);
        throw nb::value_error(msg.c_str());
    }
    return (bits + 63) / 64;
}

static uint64_t rsa_e(nb::handle e_in, const char *fn) {
    nb::object e = as_int(e_in, fn, "e");
    if (is_negative(e) || nb::cast<size_t>(e.attr("bit_length")()) > 64) {
        std::string msg = std::string(fn) + "(): e must be below 2**64";
        throw nb::value_error(msg.c_str());
    }
    return nb::cast<uint64_t>(e);
}

static void rsa_pub_init(RSAPublicKey *self, nb::handle n_in, nb::handle e_in) {
    const char *fn = "RSAPublicKey";
    const size_t nl = rsa_limbs(n_in, fn);
    const uint64_t e = rsa_e(e_in, fn);
    uint64_t N[TABAI_MAX_LIMBS];
    rsa_param(N, n_in, nl, fn, "n");
    std::unique_ptr<tabai_rsa_public_key> key(new tabai_rsa_public_key);
    check(tabai_rsa_public_key_init(key.get(), N, e, nl), fn);
    new (self) RSAPublicKey{std::move(key), limbs_to_int(N, nl)};
}

static void rsa_init(RSAKey *self, nb::handle n_in, nb::handle e_in, nb::handle d_in,
                     nb::handle p_in, nb::handle q_in, nb::handle dp_in, nb::handle dq_in,
                     nb::handle qinv_in) {
    const char *fn = "RSAKey";
    const size_t nl = rsa_limbs(n_in, fn), h = nl; // every parameter as an nl-limb number
    const uint64_t e = rsa_e(e_in, fn);
    std::vector<uint64_t> buf(2 * nl + 5 * h);
    uint64_t *N = buf.data(), *D = N + nl, *P = D + nl, *Q = P + h, *DP = Q + h, *DQ = DP + h,
             *QI = DQ + h;
    try {
        rsa_param(N, n_in, nl, fn, "n");
        rsa_param(D, d_in, nl, fn, "d");
        rsa_param(P, p_in, h, fn, "p");
        rsa_param(Q, q_in, h, fn, "q");
        rsa_param(DP, dp_in, h, fn, "dp");
        rsa_param(DQ, dq_in, h, fn, "dq");
        rsa_param(QI, qinv_in, h, fn, "qinv");
    } catch (...) {
        tabai_wipe(buf.data(), buf.size() * 8);
        throw;
    }
    std::unique_ptr<tabai_rsa_key, void (*)(tabai_rsa_key *)> key(new tabai_rsa_key, rsa_key_free);
    tabai_status s = tabai_rsa_key_init(key.get(), N, e, D, P, Q, DP, DQ, QI, nl);
    nb::object n_int = limbs_to_int(N, nl);
    tabai_wipe(buf.data(), buf.size() * 8);
    check(s, fn);
    new (self) RSAKey{std::move(key), n_int};
}

// the messages as nl-limb rows, each checked to be in [0, n)
static void rsa_rows(std::vector<uint64_t> &cl, nb::handle cs_in, const nb::object &n_int, size_t nl,
                     const char *fn) {
    std::vector<nb::object> cs = seq_ints(cs_in, fn, "messages");
    cl.assign(cs.size() * nl, 0);
    for (size_t i = 0; i < cs.size(); i++) {
        if (is_negative(cs[i]) || greater_equal(cs[i], n_int)) {
            std::string msg = std::string(fn) + "(): every message must be in [0, n)";
            throw nb::value_error(msg.c_str());
        }
        int_to_limbs_n(&cl[i * nl], cs[i], nl);
    }
}

static std::vector<nb::object> rsa_private_batch(RSAKey &k, nb::handle cs_in, nb::handle threads_in) {
    const char *fn = "RSAKey.private_batch";
    const unsigned threads = threads_arg(threads_in, fn);
    const size_t nl = k.key->pub.n;
    std::vector<uint64_t> cl, ml;
    rsa_rows(cl, cs_in, k.n_int, nl, fn);
    const size_t count = cl.size() / nl;
    ml.assign(count * nl, 0);
    std::vector<uint64_t *> mp(count);
    std::vector<const uint64_t *> cp(count);
    std::vector<tabai_rsa_key *> kp(count, k.key.get());
    for (size_t i = 0; i < count; i++) cp[i] = &cl[i * nl], mp[i] = &ml[i * nl];
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_rsa_private_batch(count, mp.data(), cp.data(), kp.data(), threads);
    }
    std::vector<nb::object> out;
    if (s == TABAI_OK) {
        out.reserve(count);
        for (size_t i = 0; i < count; i++) out.push_back(limbs_to_int(mp[i], nl));
    }
    tabai_wipe(cl.data(), cl.size() * 8);
    tabai_wipe(ml.data(), ml.size() * 8);
    check(s, fn);
    return out;
}

static std::vector<nb::object> rsa_public_batch(const tabai_rsa_public_key *pk, const nb::object &n_int,
                                                nb::handle ms_in, nb::handle threads_in,
                                                const char *fn) {
    const unsigned threads = threads_arg(threads_in, fn);
    const size_t nl = pk->n;
    std::vector<uint64_t> ml, sl;
    rsa_rows(ml, ms_in, n_int, nl, fn);
    const size_t count = ml.size() / nl;
    sl.assign(count * nl, 0);
    std::vector<uint64_t *> sp(count);
    std::vector<const uint64_t *> mp(count);
    std::vector<const tabai_rsa_public_key *> kp(count, pk);
    for (size_t i = 0; i < count; i++) mp[i] = &ml[i * nl], sp[i] = &sl[i * nl];
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_rsa_public_batch_vartime(count, sp.data(), mp.data(), kp.data(), threads);
    }
    check(s, fn);
    std::vector<nb::object> out;
    out.reserve(count);
    for (size_t i = 0; i < count; i++) out.push_back(limbs_to_int(sp[i], nl));
    tabai_wipe(ml.data(), ml.size() * 8);
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

static const char *RSAKEY_DOC = R"(An RSA private key (RFC 8017 section 3.2) for the raw private operation.

RSAKey(n, e, d, p, q, dp, dq, qinv): the modulus (1024 to 8192 bits), the public exponent
(odd, 3 <= e < 2**64), the private exponent, the primes (each of half the limbs of n),
dp = d mod (p-1), dq = d mod (q-1), qinv = q**-1 mod p. Every parameter is checked; a
ValueError names the check that failed (p*q != n, e*dp != 1 mod (p-1), ...). The key setup
is variable time in p, q and d; the operations are constant time, blinded (r**e, a fresh r
every 32 operations, squared in between) and checked with e before the result leaves (a
mismatch raises RuntimeError and returns nothing). The key's memory is wiped when the
object is freed. Use tabai.rsa.PrivateKey for keys from PEM/DER and the padding schemes.)";

static const char *RSAPUB_DOC = R"(An RSA public key (n, e): the raw public operation m**e mod n.

RSAPublicKey(n, e): n odd, 1024 to 8192 bits; e odd, 3 <= e < 2**64 (ValueError otherwise).
Variable time in e (public), constant time in the message.)";

// ---------------------------------------------------------------------------------------
// Elliptic curves (include/tabai_ec.h): byte strings in and out; the Python module
// tabai/ec.py builds the cryptography-shaped API on these. Sizes are checked here, so a
// wrong length is a ValueError naming the argument; the C library validates the values.
// ---------------------------------------------------------------------------------------
static tabai_curve ec_curve_arg(int c, size_t *L, size_t *Ln) {
    size_t l = tabai_ec_field_bytes((tabai_curve)c);
    if (l == 0) {
        std::string msg = "unknown curve id " + std::to_string(c);
        throw nb::value_error(msg.c_str());
    }
    if (L) *L = l;
    if (Ln) *Ln = tabai_ec_scalar_bytes((tabai_curve)c);
    return (tabai_curve)c;
}

static void ec_len(const nb::bytes &b, size_t want, const char *fn, const char *arg) {
    if (b.size() != want) {
        std::string msg = std::string(fn) + "(): " + arg + " must be " + std::to_string(want) +
                          " bytes, got " + std::to_string(b.size());
        throw nb::value_error(msg.c_str());
    }
}

static const uint8_t *u8(const nb::bytes &b) { return (const uint8_t *)b.c_str(); }
static nb::bytes mkbytes(const uint8_t *p, size_t n) { return nb::bytes((const char *)p, n); }

// A buffer for secrets: wiped when it dies.
struct Wiped {
    std::vector<uint8_t> v;
    explicit Wiped(size_t n) : v(n) {}
    ~Wiped() { tabai_wipe(v.data(), v.size()); }
    uint8_t *data() { return v.data(); }
};

static int ec_curve_parse(const std::string &name) { return tabai_curve_parse(name.c_str()); }

static nb::tuple ec_params(int c) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    std::vector<uint8_t> p(L), a(L), b(L), gx(L), gy(L), n(Ln);
    check(tabai_ec_curve_params(cv, p.data(), a.data(), b.data(), gx.data(), gy.data(), n.data()),
          "ec_params");
    return nb::make_tuple(mkbytes(p.data(), L), mkbytes(a.data(), L), mkbytes(b.data(), L),
                          mkbytes(gx.data(), L), mkbytes(gy.data(), L), mkbytes(n.data(), Ln),
                          nb::str(tabai_curve_name(cv)));
}

static nb::tuple ec_keypair(int c) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    Wiped sk(Ln);
    std::vector<uint8_t> pk(1 + 2 * L);
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_ec_keypair(cv, sk.data(), pk.data());
    }
    check(s, "generate");
    return nb::make_tuple(mkbytes(sk.data(), Ln), mkbytes(pk.data(), pk.size()));
}

static nb::bytes ec_public_key(int c, nb::bytes sk, bool compressed) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    ec_len(sk, Ln, "public_key", "the private key");
    std::vector<uint8_t> pk(compressed ? 1 + L : 1 + 2 * L);
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_ec_public_key(cv, pk.data(), pk.size(), u8(sk));
    }
    if (s == TABAI_ERR_SCALAR) throw nb::value_error("private key out of range: need 1 <= d < n");
    check(s, "public_key");
    return mkbytes(pk.data(), pk.size());
}

static nb::bytes ec_public_key_check(int c, nb::bytes pk) {
    size_t L;
    tabai_curve cv = ec_curve_arg(c, &L, nullptr);
    std::vector<uint8_t> out(1 + 2 * L);
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_ec_public_key_check(cv, out.data(), u8(pk), pk.size());
    }
    if (s == TABAI_ERR_POINT)
        throw nb::value_error("invalid public key: not a SEC1 encoding of a point on the curve "
                              "(wrong length or prefix, a coordinate >= p, not on the curve, or "
                              "the point at infinity)");
    check(s, "from_sec1");
    return mkbytes(out.data(), out.size());
}

static nb::bytes ec_ecdh(int c, nb::bytes sk, nb::bytes pk) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    ec_len(sk, Ln, "exchange", "the private key");
    Wiped out(L);
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_ecdh(cv, out.data(), u8(sk), u8(pk), pk.size());
    }
    if (s == TABAI_ERR_POINT) throw nb::value_error("exchange(): invalid peer public key");
    check(s, "exchange");
    return mkbytes(out.data(), L);
}

static nb::bytes ec_sign_digest(int c, nb::bytes sk, nb::bytes digest, int hash,
                                std::optional<nb::bytes> extra, unsigned flags) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    ec_len(sk, Ln, "sign", "the private key");
    std::vector<uint8_t> sig(2 * Ln);
    const uint8_t *ex = extra ? u8(*extra) : nullptr;
    size_t exlen = extra ? extra->size() : 0;
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_ecdsa_sign_digest(cv, sig.data(), u8(sk), u8(digest), digest.size(),
                                    (tabai_hash)hash, ex, exlen, flags);
    }
    if (s == TABAI_ERR_KERNEL)
        throw nb::value_error("sign(): unknown hash id (or 64 nonce candidates in a row rejected)");
    check(s, "sign");
    return mkbytes(sig.data(), sig.size());
}

// True if valid; False for TABAI_ERR_SIGNATURE; ValueError for a bad public key.
static bool ec_verify_digest(int c, nb::bytes pk, nb::bytes digest, nb::bytes sig,
                             unsigned flags) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    ec_len(sig, 2 * Ln, "verify", "the signature r || s");
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_ecdsa_verify_digest_vartime(cv, u8(pk), pk.size(), u8(digest), digest.size(),
                                              u8(sig), flags);
    }
    if (s == TABAI_ERR_SIGNATURE) return false;
    if (s == TABAI_ERR_POINT) throw nb::value_error("verify(): invalid public key");
    check(s, "verify");
    return true;
}

// ---- the batches (tabai_ec.h): lists in, lists out, the GIL released during the call ----
static std::vector<const uint8_t *> ec_ptrs(const std::vector<nb::bytes> &v) {
    std::vector<const uint8_t *> p(v.size());
    for (size_t i = 0; i < v.size(); i++) p[i] = u8(v[i]);
    return p;
}
static std::vector<size_t> ec_lens(const std::vector<nb::bytes> &v) {
    std::vector<size_t> l(v.size());
    for (size_t i = 0; i < v.size(); i++) l[i] = v[i].size();
    return l;
}
static void ec_same_count(size_t a, size_t b, const char *fn) {
    if (a != b) {
        std::string msg = std::string(fn) + "(): the lists differ in length";
        throw nb::value_error(msg.c_str());
    }
}
// One status per item: None for an item that failed, else its output.
static nb::list ec_outputs(const std::vector<tabai_status> &st, const std::vector<uint8_t> &buf,
                           size_t len) {
    nb::list out;
    for (size_t i = 0; i < st.size(); i++) {
        if (st[i] == TABAI_OK) out.append(mkbytes(buf.data() + i * len, len));
        else out.append(nb::none());
    }
    return out;
}

static nb::list ec_ecdh_batch(int c, const std::vector<nb::bytes> &sks,
                              const std::vector<nb::bytes> &pks) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    ec_same_count(sks.size(), pks.size(), "exchange_batch");
    size_t count = sks.size();
    for (const auto &k : sks) ec_len(k, Ln, "exchange_batch", "a private key");
    auto skp = ec_ptrs(sks), pkp = ec_ptrs(pks);
    auto pkl = ec_lens(pks);
    std::vector<uint8_t> buf(count * L + 1);
    std::vector<uint8_t *> outp(count);
    for (size_t i = 0; i < count; i++) outp[i] = buf.data() + i * L;
    std::vector<tabai_status> st(count);
    {
        nb::gil_scoped_release release;
        // every item's status is in st, read below; the call's own errors (unknown curve,
        // NULL arrays) cannot occur: the curve and the arrays were checked above
        (void)!tabai_ecdh_batch(cv, count, st.data(), outp.data(), skp.data(), pkp.data(),
                                pkl.data());
    }
    nb::list out = ec_outputs(st, buf, L);
    tabai_wipe(buf.data(), buf.size());
    return out;
}

static nb::list ec_sign_batch(int c, const std::vector<nb::bytes> &sks,
                              const std::vector<nb::bytes> &digests, int hash, unsigned flags) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    ec_same_count(sks.size(), digests.size(), "sign_batch");
    size_t count = sks.size();
    for (const auto &k : sks) ec_len(k, Ln, "sign_batch", "a private key");
    auto skp = ec_ptrs(sks), dgp = ec_ptrs(digests);
    auto dgl = ec_lens(digests);
    std::vector<uint8_t> buf(count * 2 * Ln + 1);
    std::vector<uint8_t *> outp(count);
    for (size_t i = 0; i < count; i++) outp[i] = buf.data() + i * 2 * Ln;
    std::vector<tabai_status> st(count);
    {
        nb::gil_scoped_release release;
        // every item's status is in st, read below; the call's own errors (unknown curve,
        // NULL arrays) cannot occur: the curve and the arrays were checked above
        (void)!tabai_ecdsa_sign_batch(cv, count, st.data(), outp.data(), skp.data(), dgp.data(),
                                      dgl.data(), (tabai_hash)hash, nullptr, nullptr, flags);
    }
    for (size_t i = 0; i < count; i++)
        if (st[i] == TABAI_ERR_KERNEL)
            throw nb::value_error("sign_batch(): unknown hash id (or 64 nonce candidates in a row rejected)");
    return ec_outputs(st, buf, 2 * Ln);
}

// True for a valid signature, False otherwise (a bad public key or signature included).
static std::vector<bool> ec_verify_batch(int c, const std::vector<nb::bytes> &pks,
                                         const std::vector<nb::bytes> &digests,
                                         const std::vector<nb::bytes> &sigs, unsigned flags) {
    size_t L, Ln;
    tabai_curve cv = ec_curve_arg(c, &L, &Ln);
    ec_same_count(pks.size(), digests.size(), "verify_batch");
    ec_same_count(pks.size(), sigs.size(), "verify_batch");
    size_t count = pks.size();
    for (const auto &s : sigs) ec_len(s, 2 * Ln, "verify_batch", "a signature r || s");
    auto pkp = ec_ptrs(pks), dgp = ec_ptrs(digests), sgp = ec_ptrs(sigs);
    auto pkl = ec_lens(pks), dgl = ec_lens(digests);
    std::vector<tabai_status> st(count);
    {
        nb::gil_scoped_release release;
        // every item's status is in st, read below; the call's own errors (unknown curve,
        // NULL arrays) cannot occur: the curve and the arrays were checked above
        (void)!tabai_ecdsa_verify_batch_vartime(cv, count, st.data(), pkp.data(), pkl.data(),
                                                dgp.data(), dgl.data(), sgp.data(), flags);
    }
    std::vector<bool> ok(count);
    for (size_t i = 0; i < count; i++) ok[i] = st[i] == TABAI_OK;
    return ok;
}

static nb::bytes ec_point_mul(int c, nb::bytes k, nb::bytes pt) {
    size_t L;
    tabai_curve cv = ec_curve_arg(c, &L, nullptr);
    std::vector<uint8_t> out(1 + 2 * L);
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_ec_point_mul(cv, out.data(), u8(k), k.size(), u8(pt), pt.size());
    }
    if (s == TABAI_ERR_POINT) throw nb::value_error("point_mul(): invalid point");
    check(s, "point_mul");
    return mkbytes(out.data(), out.size());
}

static nb::bytes ec_point_add(int c, nb::bytes a, nb::bytes b) {
    size_t L;
    tabai_curve cv = ec_curve_arg(c, &L, nullptr);
    std::vector<uint8_t> out(1 + 2 * L);
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_ec_point_add(cv, out.data(), u8(a), a.size(), u8(b), b.size());
    }
    if (s == TABAI_ERR_POINT) throw nb::value_error("point_add(): invalid point");
    check(s, "point_add");
    return mkbytes(out.data(), out.size());
}

static nb::bytes x25519_fn(nb::bytes k, nb::bytes u) {
    ec_len(k, 32, "x25519", "k");
    ec_len(u, 32, "x25519", "u");
    Wiped out(32);
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_x25519(out.data(), u8(k), u8(u));
    }
    if (s == TABAI_ERR_POINT)
        throw nb::value_error("x25519(): the result is all zero (u is a point of small order)");
    check(s, "x25519");
    return mkbytes(out.data(), 32);
}

static nb::bytes x25519_base_fn(nb::bytes k) {
    ec_len(k, 32, "x25519_base", "k");
    uint8_t out[32];
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_x25519_base(out, u8(k));
    }
    check(s, "x25519_base");
    return mkbytes(out, 32);
}

static nb::tuple x25519_keypair_fn() {
    Wiped sk(32);
    uint8_t pk[32];
    tabai_status s;
    {
        nb::gil_scoped_release release;
        s = tabai_x25519_keypair(sk.data(), pk);
    }
    check(s, "X25519PrivateKey.generate");
    return nb::make_tuple(mkbytes(sk.data(), 32), mkbytes(pk, 32));
}

static void def_ec(nb::module_ &m) {
    m.def("ec_curve_parse", &ec_curve_parse, "name"_a,
          "Curve id of a name (tabai_curve_parse: P-256, secp256r1, prime256v1, P-384, "
          "secp384r1, P-521, secp521r1, secp256k1; case-insensitive), -1 if unknown.");
    m.def("ec_params", &ec_params, "curve"_a,
          "(p, a, b, gx, gy, n, name) of a curve id: big-endian bytes (L, L, L, L, L, Ln), "
          "and the curve's name. Raises ValueError for an unknown id.");
    m.def("ec_keypair", &ec_keypair, "curve"_a,
          "(sk, pk): a new key pair from getrandom; sk Ln bytes, pk 1 + 2L bytes (SEC1 "
          "uncompressed). Raises OSError if the random generator fails. Constant time.");
    m.def("ec_public_key", &ec_public_key, "curve"_a, "sk"_a, "compressed"_a,
          "SEC1 public key d*G of the Ln-byte big-endian scalar sk. Raises ValueError for "
          "a wrong length or d not in [1, n-1]. Constant time in sk.");
    m.def("ec_public_key_check", &ec_public_key_check, "curve"_a, "pk"_a,
          "The SEC1 public key pk (compressed or not) validated and uncompressed (1 + 2L "
          "bytes). Raises ValueError if invalid. Variable time (public data).");
    m.def("ecdh", &ec_ecdh, "curve"_a, "sk"_a, "pk"_a,
          "ECDH (SEC 1 3.3.1): the x-coordinate of d*Q, L bytes. Raises ValueError for a "
          "bad scalar or peer key. Constant time in sk.");
    m.def("ecdsa_sign_digest", &ec_sign_digest, "curve"_a, "sk"_a, "digest"_a, "hash"_a,
          "extra"_a.none(), "flags"_a,
          "ECDSA signature r || s (2 Ln bytes) of a digest, nonce by RFC 6979 with the hash id "
          "(tabai_hash) and optional extra data (RFC 6979 3.6); flags 1 = low S. Raises "
          "ValueError for a bad scalar or hash id. Constant time in sk and the nonce.");
    m.def("ecdsa_verify_digest", &ec_verify_digest, "curve"_a, "pk"_a, "digest"_a, "sig"_a,
          "flags"_a,
          "True if sig = r || s (2 Ln bytes) is a valid ECDSA signature of digest for the SEC1 "
          "key pk, False if not (r or s out of range included); flags 1 rejects a high S. "
          "Raises ValueError for a bad public key or signature length. Variable time.");
    m.def("ecdh_batch", &ec_ecdh_batch, "curve"_a, "sks"_a, "pks"_a,
          "ECDH for many pairs (tabai_ecdh_batch): a list of L-byte secrets, None for an item "
          "with a bad scalar or peer key. Raises ValueError for lists of different lengths or "
          "a private key of the wrong length. Constant time in the private keys.");
    m.def("ecdsa_sign_batch", &ec_sign_batch, "curve"_a, "sks"_a, "digests"_a, "hash"_a,
          "flags"_a,
          "ECDSA signatures r || s of many digests (tabai_ecdsa_sign_batch), byte for byte "
          "those of ecdsa_sign_digest; None for an item with a bad scalar. Raises ValueError "
          "for a bad hash id or list lengths. Constant time in the keys and nonces.");
    m.def("ecdsa_verify_batch", &ec_verify_batch, "curve"_a, "pks"_a, "digests"_a, "sigs"_a,
          "flags"_a,
          "A list of booleans: True where sig = r || s is valid for the digest and the SEC1 "
          "key (tabai_ecdsa_verify_batch_vartime). Raises ValueError for list lengths or a "
          "signature of the wrong length. Variable time.");
    m.def("ec_point_mul", &ec_point_mul, "curve"_a, "k"_a, "point"_a,
          "k*P for big-endian k bytes (any length, reduced mod n) and a SEC1 point (b'\\x00' "
          "for infinity): 1 + 2L bytes, all zero for infinity. Raises ValueError for an "
          "invalid point. Constant time in k.");
    m.def("ec_point_add", &ec_point_add, "curve"_a, "a"_a, "b"_a,
          "P + Q of two SEC1 points (b'\\x00' for infinity) by complete formulas: 1 + 2L "
          "bytes, all zero for infinity. Raises ValueError for an invalid point.");
    m.def("x25519", &x25519_fn, "k"_a, "u"_a,
          "X25519(k, u) of RFC 7748: k and u 32 bytes little-endian (k clamped, u's top bit "
          "ignored); 32 bytes. Raises ValueError for wrong lengths or an all-zero result. "
          "Constant time in k.");
    m.def("x25519_base", &x25519_base_fn, "k"_a,
          "X25519(k, 9): the public key of k (32 bytes). Constant time in k.");
    m.def("x25519_keypair", &x25519_keypair_fn,
          "(sk, pk): a new X25519 key pair from getrandom (32 bytes each). Raises OSError if "
          "the random generator fails.");
}

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
    m.def("powmod2_vartime", &powmod2_impl, "a1"_a.none(), "e1"_a.none(), "a2"_a.none(),
          "e2"_a.none(), "m"_a.none(),
          nb::sig("def powmod2_vartime(a1: int, e1: int, a2: int, e2: int, m: int) -> int"),
          POWMOD2_VARTIME_DOC);
    m.def(
        "jacobi_vartime",
        [](nb::handle a_in, nb::handle m_in) {
            const char *fn = "jacobi_vartime";
            nb::object a = as_int(a_in, fn, "a"), mm = as_int(m_in, fn, "m");
            if (is_negative(mm) || !greater_equal(mm, nb::int_(3)) ||
                nb::cast<size_t>(mm.attr("bit_length")()) > MAX_BITS)
                throw nb::value_error("jacobi_vartime(): m must be odd, 3 <= m < 2**8192");
            const size_t n = (nb::cast<size_t>(mm.attr("bit_length")()) + 63) / 64;
            uint64_t A[TABAI_MAX_LIMBS], M[TABAI_MAX_LIMBS];
            int_to_limbs_n(M, mm, n);
            int_to_limbs_n(A, reduce(a, mm), n);
            int r = 0;
            tabai_status s;
            {
                nb::gil_scoped_release release;
                s = tabai_jacobi_vartime(&r, A, M, n);
            }
            if (s == TABAI_ERR_MODULUS) throw nb::value_error("jacobi_vartime(): m must be odd");
            check(s, fn);
            return r;
        },
        "a"_a.none(), "m"_a.none(), nb::sig("def jacobi_vartime(a: int, m: int) -> int"),
        "The Jacobi symbol (a/m) in {-1, 0, 1} for an odd m >= 3 (a reduced mod m first); for a "
        "prime m the Legendre symbol. Variable time: public values only. Raises ValueError for "
        "an even or < 3 m, TypeError for a non-int.");
    m.def("cpu", &cpu_info, nb::sig("def cpu() -> dict[str, object]"), CPU_DOC);
    m.def("set_tier", &set_tier, "name"_a, nb::sig("def set_tier(name: str) -> str"), SET_TIER_DOC);
    m.def("c_version", []() { return std::string(tabai_version()); },
          "Version string of the C library.");
    m.attr("MAX_BITS") = MAX_BITS;
    def_ec(m);
    m.def("powmod_batch", &powmod_batch, "bases"_a, "exps"_a, "mods"_a, "threads"_a.none() = nb::none(),
          nb::sig("def powmod_batch(bases: Sequence[int], exps: Sequence[int], "
                  "mods: Sequence[int], threads: int | None = None) -> list[int]"),
          POWMOD_BATCH_DOC);
    m.def("powmod_batch_limbs", &powmod_batch_limbs, "b"_a, "e"_a, "m"_a,
          "threads"_a.none() = nb::none(),
          POWMOD_BATCH_LIMBS_DOC);
    nb::class_<RSAKey>(m, "RSAKey", RSAKEY_DOC)
        .def("__init__", &rsa_init, "n"_a, "e"_a, "d"_a, "p"_a, "q"_a, "dp"_a, "dq"_a, "qinv"_a)
        .def("private_batch", &rsa_private_batch, "messages"_a, "threads"_a.none() = nb::none(),
             nb::sig("def private_batch(self, messages: Sequence[int], threads: int | None = None) "
                     "-> list[int]"),
             "[m**d mod n for m in messages] by CRT, blinded and checked, 8 at a time at tier "
             "ifma on `threads` threads (None: every core); the GIL is released. Raises "
             "ValueError for a message outside [0, n), RuntimeError if a result fails its check.")
        .def("private", [](RSAKey &k, nb::handle c) {
                 nb::list one;
                 one.append(c);
                 return rsa_private_batch(k, one, nb::int_(1))[0];
             }, "c"_a, nb::sig("def private(self, c: int) -> int"),
             "c**d mod n for one message (as private_batch).")
        .def("public", [](const RSAKey &k, nb::handle mm) {
                 nb::list one;
                 one.append(mm);
                 return rsa_public_batch(&k.key->pub, k.n_int, one, nb::int_(1), "RSAKey.public")[0];
             }, "m"_a, nb::sig("def public(self, m: int) -> int"), "m**e mod n (variable time in e).")
        .def_prop_ro("n", [](const RSAKey &k) { return k.n_int; }, "The public modulus n = p*q.")
        .def_prop_ro("e", [](const RSAKey &k) { return k.key->pub.e; }, "The public exponent.")
        .def_prop_ro("bits", [](const RSAKey &k) { return k.key->pub.mn.bits; },
                     "Bit length of n.");
    nb::class_<RSAPublicKey>(m, "RSAPublicKey", RSAPUB_DOC)
        .def("__init__", &rsa_pub_init, "n"_a, "e"_a)
        .def("public_batch", [](const RSAPublicKey &k, nb::handle ms, nb::handle t) {
                 return rsa_public_batch(k.key.get(), k.n_int, ms, t, "RSAPublicKey.public_batch");
             }, "messages"_a, "threads"_a.none() = nb::none(),
             nb::sig("def public_batch(self, messages: Sequence[int], threads: int | None = None) "
                     "-> list[int]"),
             "[m**e mod n for m in messages] (variable time in e), on `threads` threads; the GIL "
             "is released. Raises ValueError for a message outside [0, n).")
        .def("public", [](const RSAPublicKey &k, nb::handle mm) {
                 nb::list one;
                 one.append(mm);
                 return rsa_public_batch(k.key.get(), k.n_int, one, nb::int_(1), "RSAPublicKey.public")[0];
             }, "m"_a, nb::sig("def public(self, m: int) -> int"), "m**e mod n (variable time in e).")
        .def_prop_ro("n", [](const RSAPublicKey &k) { return k.n_int; }, "The modulus.")
        .def_prop_ro("e", [](const RSAPublicKey &k) { return k.key->e; }, "The public exponent.")
        .def_prop_ro("bits", [](const RSAPublicKey &k) { return k.key->mn.bits; }, "Bit length of n.");

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
    mc.def("pow2_vartime", &Montgomery::pow2_vartime, "a1"_a.none(), "e1"_a.none(), "a2"_a.none(),
           "e2"_a.none(), nb::sig("def pow2_vartime(self, a1: int, e1: int, a2: int, e2: int) -> int"),
           "a1**e1 * a2**e2 mod p as powmod2_vartime() with this context (no set-up per call).\n"
           "Variable time in e1 and e2: public exponents only.");

    static const std::string ohta_doc =
        std::string("Arithmetic modulo any p >= 2 (p < 2**8192), even ones "
                    "included, with Ohta's\nBarrett-like reduction (K = floor(R**2 / p), "
                    "truncated product, two masked subtractions).\nRaises ValueError for "
                    "p < 2 or p >= 2**8192, TypeError for a non-int.\n") +
        FIELD_OPS_DOC;
    nb::class_<FixedBase>(m, "FixedBase",
                          "g**e mod p for one fixed base g and exponents of at most ebits bits "
                          "(odd p >= 3):\nthe comb method of Lim and Lee with a table of "
                          "2**rows entries made once (rows=None:\nthe measured default). "
                          "Raises ValueError for a bad p, ebits outside [1, 16384] or\nrows "
                          "outside [1, 6], TypeError for a non-int.")
        .def(nb::init<nb::handle, nb::handle, size_t, nb::handle>(), "p"_a.none(), "g"_a.none(),
             "ebits"_a, "rows"_a.none() = nb::none(),
             nb::sig("def __init__(self, p: int, g: int, ebits: int, rows: int | None = None) -> None"))
        .def_ro("ebits", &FixedBase::ebits)
        .def_ro("rows", &FixedBase::rows)
        .def("pow", &FixedBase::pow, "e"_a.none(), nb::sig("def pow(self, e: int) -> int"),
             "g**e mod p for 0 <= e < 2**ebits: ceil(ebits/rows) squarings and products, "
             "each table entry\nread by a masked scan of all of them. Constant time in e "
             "(the int conversion aside).\nRaises ValueError for e outside [0, 2**ebits).");
    nb::class_<Ohta> oc(m, "Ohta", ohta_doc.c_str());
    oc.def(nb::init<nb::handle>(), "p"_a.none(), nb::sig("def __init__(self, p: int) -> None"));
    def_field_methods(oc);
}
