/* Every error path of include/tabai.h: for each function and each tabai_status it
 * documents, fill the output with a sentinel, call with the bad input (NULL pointers,
 * n = 0, n > TABAI_MAX_LIMBS, even / zero / one modulus for Montgomery, p < 2 for Ohta,
 * operands >= p, exponents too long, allocation failure, unknown kernels and tiers), and
 * check the code and that the output (or context) is unchanged. tabai_status_str for every
 * code. Allocation failures are injected by linking with -Wl,--wrap=malloc (the library is
 * the static one, so its calls to malloc land in __wrap_malloc below). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define NMAX TABAI_MAX_LIMBS
#define SENT 0x5e5e5e5e5e5e5e5eu

/* ---- allocation failure injection, leak and wipe checks ----
 * malloc, calloc and free of the (static) library land in the wrappers below. While
 * `tracking` is on (around one library call), every block the library allocates is recorded
 * and malloc's blocks are filled with a non-zero pattern; free checks that a recorded block is
 * all zero (wiped with tabai_wipe) before releasing it, and the run ends with no recorded
 * block alive (nothing leaked). fail_countdown = k makes the (k+1)-th allocation fail. */
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void __real_free(void *p);
static int fail_countdown = -1; /* -1: never fail; k: the (k+1)-th call fails */
static int tracking;
#define MAX_BLOCKS 64
static struct {
    void *p;
    size_t size;
} blocks[MAX_BLOCKS];
static size_t live_blocks, unwiped_frees, untracked_blocks;

static int alloc_fails(void) {
    if (fail_countdown == 0) {
        fail_countdown = -1;
        return 1;
    }
    if (fail_countdown > 0) fail_countdown--;
    return 0;
}
static void track(void *p, size_t size) {
    if (!tracking || !p) return;
    for (size_t i = 0; i < MAX_BLOCKS; i++)
        if (!blocks[i].p) {
            blocks[i].p = p, blocks[i].size = size, live_blocks++;
            return;
        }
    untracked_blocks++;
}
void *__wrap_malloc(size_t size) {
    if (alloc_fails()) return NULL;
    void *p = __real_malloc(size);
    if (p && tracking) memset(p, 0xa5, size); /* an unwritten block is not zero either */
    track(p, size);
    return p;
}
void *__wrap_calloc(size_t count, size_t size) {
    if (alloc_fails()) return NULL;
    void *p = __real_calloc(count, size);
    track(p, count * size);
    return p;
}
void __wrap_free(void *p) {
    for (size_t i = 0; p && i < MAX_BLOCKS; i++)
        if (blocks[i].p == p) {
            const unsigned char *b = p;
            for (size_t j = 0; j < blocks[i].size; j++)
                if (b[j]) {
                    unwiped_frees++;
                    break;
                }
            blocks[i].p = NULL, live_blocks--;
            break;
        }
    __real_free(p);
}
static void tracking_begin(void) {
    memset(blocks, 0, sizeof blocks);
    live_blocks = unwiped_frees = untracked_blocks = 0;
    tracking = 1;
}
static void tracking_end(void) { tracking = 0; }

static const char *status_name(tabai_status s) {
    switch (s) {
    case TABAI_OK: return "TABAI_OK";
    case TABAI_ERR_NULL: return "TABAI_ERR_NULL";
    case TABAI_ERR_SIZE: return "TABAI_ERR_SIZE";
    case TABAI_ERR_MODULUS: return "TABAI_ERR_MODULUS";
    case TABAI_ERR_RANGE: return "TABAI_ERR_RANGE";
    case TABAI_ERR_NOINV: return "TABAI_ERR_NOINV";
    case TABAI_ERR_TIER: return "TABAI_ERR_TIER";
    case TABAI_ERR_KERNEL: return "TABAI_ERR_KERNEL";
    case TABAI_ERR_ALLOC: return "TABAI_ERR_ALLOC";
    case TABAI_ERR_SCRATCH: return "TABAI_ERR_SCRATCH";
    default: break;
    }
    return "?";
}

/* r[n] (guarded) is filled with SENT before the call and must be untouched after it */
static uint64_t *R;
static size_t RN;
static void arm(void) { tu_buf_fill(R, RN, SENT); }
static int untouched(void) {
    for (size_t i = 0; i < RN; i++)
        if (R[i] != SENT) return 0;
    return tu_buf_ok(R);
}
#define EXPECT(call, code, what)                                                              \
    do {                                                                                      \
        arm();                                                                                \
        tabai_status s_ = (call);                                                             \
        uint64_t sv_ = (uint64_t)(int64_t)s_;                                                 \
        tu_note("got %s, want %s", status_name(s_), status_name(code));                      \
        TU_CHECK(s_ == (code) && untouched(), what, RN, TU_V("status", &sv_, 1));             \
        tu_note("%s", "");                                                                    \
    } while (0)

/* contexts: filled with a byte pattern, must be unchanged by a failing init */
static int ctx_untouched(const void *c, size_t size) {
    const unsigned char *b = c;
    for (size_t i = 0; i < size; i++)
        if (b[i] != 0xa7) return 0;
    return 1;
}
#define EXPECT_INIT(ctxp, call, code, what)                                                   \
    do {                                                                                      \
        memset((ctxp), 0xa7, sizeof *(ctxp));                                                 \
        tabai_status s_ = (call);                                                             \
        uint64_t sv_ = (uint64_t)(int64_t)s_;                                                 \
        tu_note("got %s, want %s", status_name(s_), status_name(code));                      \
        TU_CHECK(s_ == (code) && ctx_untouched((ctxp), sizeof *(ctxp)), what, 0,             \
                 TU_V("status", &sv_, 1));                                                    \
        tu_note("%s", "");                                                                    \
    } while (0)

static void status_strings(void) {
    static const tabai_status all[] = {TABAI_OK,          TABAI_ERR_NULL,  TABAI_ERR_SIZE,
                                       TABAI_ERR_MODULUS, TABAI_ERR_RANGE, TABAI_ERR_NOINV,
                                       TABAI_ERR_TIER,    TABAI_ERR_KERNEL, TABAI_ERR_ALLOC};
    size_t cnt = sizeof all / sizeof all[0];
    for (size_t i = 0; i < cnt; i++) {
        const char *s = tabai_status_str(all[i]);
        uint64_t v = (uint64_t)(int64_t)all[i];
        TU_CHECK(s && *s && strcmp(s, "unknown status") != 0, "tabai_status_str", 0, TU_V("code", &v, 1));
        for (size_t j = 0; j < i; j++)
            TU_CHECK(s && strcmp(s, tabai_status_str(all[j])) != 0, "tabai_status_str distinct", 0,
                     TU_V("code", &v, 1));
        TU_CHECK(i == 0 ? all[i] == 0 : all[i] < 0, "status codes: OK = 0, errors negative", 0,
                 TU_V("code", &v, 1));
    }
    TU_CHECK(tabai_status_str((tabai_status)42) != NULL && tabai_status_str((tabai_status)-99) != NULL,
             "tabai_status_str of an unknown code is not NULL", 0, TU_NOV);
    TU_CHECK(tabai_version() && strchr(tabai_version(), '.'), "tabai_version", 0, TU_NOV);
}

static void bytes_errors(void) {
    uint8_t be[16] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
    RN = 1;
    R = tu_buf_new(RN);
    EXPECT(tabai_from_bytes(NULL, 1, be, 8), TABAI_ERR_NULL, "tabai_from_bytes r = NULL");
    EXPECT(tabai_from_bytes(R, 1, NULL, 8), TABAI_ERR_NULL, "tabai_from_bytes be = NULL");
    EXPECT(tabai_from_bytes(R, 1, be, 16), TABAI_ERR_SIZE, "tabai_from_bytes: 14 bytes into 1 limb");
    EXPECT(tabai_from_bytes(R, 0, be + 2, 1), TABAI_ERR_SIZE, "tabai_from_bytes n = 0");
    arm();
    TU_CHECK(tabai_from_bytes(R, 1, be + 8, 8) == TABAI_OK && R[0] == 0x0708090a0b0c0d0eu,
             "tabai_from_bytes 8 bytes", 1, TU_V("got", R, 1));
    arm();
    TU_CHECK(tabai_from_bytes(R, 1, be, 10) == TABAI_OK && R[0] == 0x0102030405060708u,
             "tabai_from_bytes leading zero bytes", 1, TU_V("got", R, 1));
    tu_buf_free(R);
    /* to_bytes: nothing written when the value does not fit */
    uint64_t a[2] = {0x1122334455667788u, 0x99};
    uint8_t out[12], ref[12];
    memset(out, 0xee, sizeof out), memset(ref, 0xee, sizeof ref);
    tabai_status s = tabai_to_bytes(out, 8, a, 2);
    TU_CHECK(s == TABAI_ERR_SIZE && memcmp(out, ref, sizeof out) == 0,
             "tabai_to_bytes: value does not fit, nothing written", 2, TU_NOV);
    TU_CHECK(tabai_to_bytes(NULL, 8, a, 2) == TABAI_ERR_NULL && tabai_to_bytes(out, 8, NULL, 2) == TABAI_ERR_NULL,
             "tabai_to_bytes NULL", 2, TU_NOV);
    /* 8n overflows a size_t: refused before any byte or limb is touched (no limb array that
     * long can exist; the buffers here are short, so any access past them would be caught) */
    const size_t huge = SIZE_MAX / 8 + 2; /* 8 * huge wraps to 8 */
    s = tabai_to_bytes(out, 12, a, huge);
    TU_CHECK(s == TABAI_ERR_SIZE && memcmp(out, ref, sizeof out) == 0,
             "tabai_to_bytes: 8n overflows, TABAI_ERR_SIZE, nothing written", 2, TU_NOV);
    RN = 2;
    R = tu_buf_new(RN);
    EXPECT(tabai_from_bytes(R, huge, be, 16), TABAI_ERR_SIZE, "tabai_from_bytes: 8n overflows");
    EXPECT(tabai_from_bytes(R, SIZE_MAX, be, 3), TABAI_ERR_SIZE, "tabai_from_bytes: n = SIZE_MAX");
    tu_buf_free(R);
    s = tabai_to_bytes(out, 9, a, 2);
    TU_CHECK(s == TABAI_OK && out[0] == 0x99 && out[8] == 0x88 && out[9] == 0xee,
             "tabai_to_bytes 9 bytes (fits), no byte written past len", 2, TU_NOV);
}

static void mont_errors(void) {
    static tabai_mont ctx, good;
    uint64_t p[NMAX + 4], a[NMAX], b[NMAX];
    /* init */
    tu_modulus(p, 4, TU_MOD_UNIFORM, TU_ODD);
    EXPECT_INIT(&ctx, tabai_mont_init(&ctx, NULL, 4), TABAI_ERR_NULL, "tabai_mont_init p = NULL");
    TU_CHECK(tabai_mont_init(NULL, p, 4) == TABAI_ERR_NULL, "tabai_mont_init ctx = NULL", 4, TU_NOV);
    EXPECT_INIT(&ctx, tabai_mont_init(&ctx, p, 0), TABAI_ERR_SIZE, "tabai_mont_init n = 0");
    tu_modulus(p, NMAX + 1, TU_MOD_UNIFORM, TU_ODD);
    EXPECT_INIT(&ctx, tabai_mont_init(&ctx, p, NMAX + 1), TABAI_ERR_SIZE, "tabai_mont_init n = 129");
    p[NMAX] = 0; /* 129 limbs with a zero top limb: 128 after stripping, allowed */
    memset(&ctx, 0, sizeof ctx);
    TU_CHECK(tabai_mont_init(&ctx, p, NMAX + 1) == TABAI_OK && ctx.n == NMAX,
             "tabai_mont_init 129 limbs with zero top limb = 128 limbs", NMAX + 1, TU_NOV);
    for (size_t n = 1; n <= 3; n++) {
        tu_modulus(p, n, TU_MOD_UNIFORM, TU_EVEN);
        EXPECT_INIT(&ctx, tabai_mont_init(&ctx, p, n), TABAI_ERR_MODULUS, "tabai_mont_init even p");
        memset(p, 0, n * 8);
        EXPECT_INIT(&ctx, tabai_mont_init(&ctx, p, n), TABAI_ERR_MODULUS, "tabai_mont_init p = 0");
        p[0] = 1;
        EXPECT_INIT(&ctx, tabai_mont_init(&ctx, p, n), TABAI_ERR_MODULUS, "tabai_mont_init p = 1");
    }
    /* bytes */
    uint8_t be[8 * NMAX + 16];
    memset(be, 0, sizeof be);
    EXPECT_INIT(&ctx, tabai_mont_init_bytes(&ctx, NULL, 8), TABAI_ERR_NULL, "tabai_mont_init_bytes NULL");
    EXPECT_INIT(&ctx, tabai_mont_init_bytes(&ctx, be, 0), TABAI_ERR_MODULUS, "tabai_mont_init_bytes len = 0");
    EXPECT_INIT(&ctx, tabai_mont_init_bytes(&ctx, be, 64), TABAI_ERR_MODULUS, "tabai_mont_init_bytes zero");
    be[63] = 1;
    EXPECT_INIT(&ctx, tabai_mont_init_bytes(&ctx, be, 64), TABAI_ERR_MODULUS, "tabai_mont_init_bytes one");
    be[63] = 8;
    EXPECT_INIT(&ctx, tabai_mont_init_bytes(&ctx, be, 64), TABAI_ERR_MODULUS, "tabai_mont_init_bytes even");
    be[63] = 0;
    be[0] = 1, be[sizeof be - 1] = 3;
    EXPECT_INIT(&ctx, tabai_mont_init_bytes(&ctx, be, sizeof be), TABAI_ERR_SIZE,
                "tabai_mont_init_bytes 1040 bytes");
    be[0] = 0;
    memset(&ctx, 0, sizeof ctx);
    TU_CHECK(tabai_mont_init_bytes(&ctx, be, sizeof be) == TABAI_OK && ctx.n == 1,
             "tabai_mont_init_bytes 1040 bytes, only the last non-zero", 0, TU_NOV);
    /* operations */
    for (size_t n = 1; n <= NMAX; n += n < 8 ? 1 : 37) {
        tu_modulus(p, n, (int)tu_below(TU_MOD_COUNT), TU_ODD);
        TU_CHECK(tabai_mont_init(&good, p, n) == TABAI_OK, "tabai_mont_init", n, TU_V("p", p, n));
        RN = n;
        R = tu_buf_new(n);
        tu_operand(a, p, n, TU_OP_UNIFORM);
        const uint64_t *bad[3];
        uint64_t big1[NMAX], big2[NMAX];
        memcpy(big1, p, n * 8);          /* a = p */
        memset(big2, 0xff, n * 8);       /* a = 2^(64n) - 1 */
        bad[0] = big1, bad[1] = big2, bad[2] = big1;
        for (int k = 0; k < 2; k++) {
            const uint64_t *x = bad[k];
            EXPECT(tabai_mont_mul(&good, R, x, a), TABAI_ERR_RANGE, "tabai_mont_mul a >= p");
            EXPECT(tabai_mont_mul(&good, R, a, x), TABAI_ERR_RANGE, "tabai_mont_mul b >= p");
            EXPECT(tabai_mont_sqr(&good, R, x), TABAI_ERR_RANGE, "tabai_mont_sqr a >= p");
            EXPECT(tabai_mont_to(&good, R, x), TABAI_ERR_RANGE, "tabai_mont_to a >= p");
            EXPECT(tabai_mont_from(&good, R, x), TABAI_ERR_RANGE, "tabai_mont_from a >= p");
            EXPECT(tabai_mont_add(&good, R, x, a), TABAI_ERR_RANGE, "tabai_mont_add a >= p");
            EXPECT(tabai_mont_add(&good, R, a, x), TABAI_ERR_RANGE, "tabai_mont_add b >= p");
            EXPECT(tabai_mont_sub(&good, R, x, a), TABAI_ERR_RANGE, "tabai_mont_sub a >= p");
            EXPECT(tabai_mont_sub(&good, R, a, x), TABAI_ERR_RANGE, "tabai_mont_sub b >= p");
            EXPECT(tabai_mont_neg(&good, R, x), TABAI_ERR_RANGE, "tabai_mont_neg a >= p");
            EXPECT(tabai_mont_inv_prime(&good, R, x), TABAI_ERR_RANGE, "tabai_mont_inv_prime a >= p");
        }
        EXPECT(tabai_mont_mul(NULL, R, a, a), TABAI_ERR_NULL, "tabai_mont_mul ctx NULL");
        EXPECT(tabai_mont_mul(&good, R, NULL, a), TABAI_ERR_NULL, "tabai_mont_mul a NULL");
        EXPECT(tabai_mont_mul(&good, R, a, NULL), TABAI_ERR_NULL, "tabai_mont_mul b NULL");
        TU_CHECK(tabai_mont_mul(&good, NULL, a, a) == TABAI_ERR_NULL, "tabai_mont_mul r NULL", n, TU_NOV);
        EXPECT(tabai_mont_sqr(NULL, R, a), TABAI_ERR_NULL, "tabai_mont_sqr ctx NULL");
        EXPECT(tabai_mont_sqr(&good, R, NULL), TABAI_ERR_NULL, "tabai_mont_sqr a NULL");
        TU_CHECK(tabai_mont_sqr(&good, NULL, a) == TABAI_ERR_NULL, "tabai_mont_sqr r NULL", n, TU_NOV);
        EXPECT(tabai_mont_to(NULL, R, a), TABAI_ERR_NULL, "tabai_mont_to ctx NULL");
        EXPECT(tabai_mont_to(&good, R, NULL), TABAI_ERR_NULL, "tabai_mont_to a NULL");
        EXPECT(tabai_mont_from(NULL, R, a), TABAI_ERR_NULL, "tabai_mont_from ctx NULL");
        EXPECT(tabai_mont_from(&good, R, NULL), TABAI_ERR_NULL, "tabai_mont_from a NULL");
        EXPECT(tabai_mont_add(NULL, R, a, a), TABAI_ERR_NULL, "tabai_mont_add ctx NULL");
        EXPECT(tabai_mont_add(&good, R, NULL, a), TABAI_ERR_NULL, "tabai_mont_add a NULL");
        EXPECT(tabai_mont_add(&good, R, a, NULL), TABAI_ERR_NULL, "tabai_mont_add b NULL");
        EXPECT(tabai_mont_sub(NULL, R, a, a), TABAI_ERR_NULL, "tabai_mont_sub ctx NULL");
        EXPECT(tabai_mont_sub(&good, R, NULL, a), TABAI_ERR_NULL, "tabai_mont_sub a NULL");
        EXPECT(tabai_mont_sub(&good, R, a, NULL), TABAI_ERR_NULL, "tabai_mont_sub b NULL");
        EXPECT(tabai_mont_neg(NULL, R, a), TABAI_ERR_NULL, "tabai_mont_neg ctx NULL");
        EXPECT(tabai_mont_neg(&good, R, NULL), TABAI_ERR_NULL, "tabai_mont_neg a NULL");
        EXPECT(tabai_mont_inv_prime(NULL, R, a), TABAI_ERR_NULL, "tabai_mont_inv_prime ctx NULL");
        EXPECT(tabai_mont_inv_prime(&good, R, NULL), TABAI_ERR_NULL, "tabai_mont_inv_prime a NULL");
        memset(b, 0, n * 8);
        EXPECT(tabai_mont_inv_prime(&good, R, b), TABAI_ERR_NOINV, "tabai_mont_inv_prime a = 0");
        /* powmod */
        uint64_t e[4] = {0x123456789abcdefu, 3, 0, 0};
        size_t ebits = 66, sl = tabai_powmod_scratch_limbs(n, 2 * 64 * NMAX + 1);
        uint64_t *scr = malloc(sl * 8);
        EXPECT(tabai_mont_powmod(&good, R, big1, e, ebits, scr, sl), TABAI_ERR_RANGE, "tabai_mont_powmod b >= p");
        EXPECT(tabai_mont_powmod_vartime(&good, R, big2, e, ebits, scr, sl), TABAI_ERR_RANGE,
               "tabai_mont_powmod_vartime b >= p");
        EXPECT(tabai_mont_powmod(NULL, R, a, e, ebits, scr, sl), TABAI_ERR_NULL, "tabai_mont_powmod ctx NULL");
        EXPECT(tabai_mont_powmod(&good, R, NULL, e, ebits, scr, sl), TABAI_ERR_NULL, "tabai_mont_powmod b NULL");
        EXPECT(tabai_mont_powmod(&good, R, a, NULL, ebits, scr, sl), TABAI_ERR_NULL,
               "tabai_mont_powmod e NULL, ebits > 0");
        EXPECT(tabai_mont_powmod(&good, R, a, e, ebits, NULL, sl), TABAI_ERR_NULL, "tabai_mont_powmod scratch NULL");
        EXPECT(tabai_mont_powmod_vartime(&good, R, a, e, ebits, NULL, sl), TABAI_ERR_NULL,
               "tabai_mont_powmod_vartime scratch NULL");
        TU_CHECK(tabai_mont_powmod(&good, NULL, a, e, ebits, scr, sl) == TABAI_ERR_NULL,
                 "tabai_mont_powmod r NULL", n, TU_NOV);
        EXPECT(tabai_mont_powmod(&good, R, a, e, 2 * 64 * NMAX + 1, scr, sl), TABAI_ERR_SIZE,
               "tabai_mont_powmod ebits > 2 * 64 * TABAI_MAX_LIMBS");
        EXPECT(tabai_mont_powmod_vartime(&good, R, a, e, (size_t)-1, scr, sl), TABAI_ERR_SIZE,
               "tabai_mont_powmod_vartime ebits = SIZE_MAX");
        /* scratch one limb short for this ebits: nothing written */
        size_t need = tabai_powmod_scratch_limbs(n, ebits);
        EXPECT(tabai_mont_powmod(&good, R, a, e, ebits, scr, need - 1), TABAI_ERR_SCRATCH,
               "tabai_mont_powmod scratch one limb short");
        EXPECT(tabai_mont_powmod_vartime(&good, R, a, e, ebits, scr, 0), TABAI_ERR_SCRATCH,
               "tabai_mont_powmod_vartime scratch length 0");
        EXPECT(tabai_mont_powmod(&good, R, a, e, 0, scr, tabai_powmod_scratch_limbs(n, 0) - 1),
               TABAI_ERR_SCRATCH, "tabai_mont_powmod ebits = 0, scratch one limb short");
        TU_CHECK(tabai_mont_powmod(&good, R, a, e, ebits, scr, need) == TABAI_OK,
                 "tabai_mont_powmod scratch of exactly the size asked", n, TU_NOV);
        free(scr);
        tu_buf_free(R);
    }
}

static void ohta_errors(void) {
    static tabai_ohta ctx, good;
    uint64_t p[NMAX + 1], a[NMAX], x[2 * NMAX];
    tu_modulus(p, 3, TU_MOD_UNIFORM, TU_ANY);
    EXPECT_INIT(&ctx, tabai_ohta_init(&ctx, NULL, 3), TABAI_ERR_NULL, "tabai_ohta_init p NULL");
    TU_CHECK(tabai_ohta_init(NULL, p, 3) == TABAI_ERR_NULL, "tabai_ohta_init ctx NULL", 3, TU_NOV);
    EXPECT_INIT(&ctx, tabai_ohta_init(&ctx, p, 0), TABAI_ERR_SIZE, "tabai_ohta_init n = 0");
    tu_modulus(p, NMAX + 1, TU_MOD_UNIFORM, TU_ANY);
    EXPECT_INIT(&ctx, tabai_ohta_init(&ctx, p, NMAX + 1), TABAI_ERR_SIZE, "tabai_ohta_init n = 129");
    for (size_t n = 1; n <= 3; n++) {
        memset(p, 0, n * 8);
        EXPECT_INIT(&ctx, tabai_ohta_init(&ctx, p, n), TABAI_ERR_MODULUS, "tabai_ohta_init p = 0");
        p[0] = 1;
        EXPECT_INIT(&ctx, tabai_ohta_init(&ctx, p, n), TABAI_ERR_MODULUS, "tabai_ohta_init p = 1");
    }
    uint8_t be[8 * NMAX + 8];
    memset(be, 0, sizeof be);
    EXPECT_INIT(&ctx, tabai_ohta_init_bytes(&ctx, NULL, 3), TABAI_ERR_NULL, "tabai_ohta_init_bytes NULL");
    EXPECT_INIT(&ctx, tabai_ohta_init_bytes(&ctx, be, 0), TABAI_ERR_MODULUS, "tabai_ohta_init_bytes len 0");
    be[sizeof be - 1] = 1;
    EXPECT_INIT(&ctx, tabai_ohta_init_bytes(&ctx, be, sizeof be), TABAI_ERR_MODULUS, "tabai_ohta_init_bytes one");
    be[0] = 1;
    EXPECT_INIT(&ctx, tabai_ohta_init_bytes(&ctx, be, sizeof be), TABAI_ERR_SIZE,
                "tabai_ohta_init_bytes 1032 bytes");
    for (size_t n = 1; n <= NMAX; n += n < 8 ? 1 : 37) {
        tu_modulus(p, n, (int)tu_below(TU_MOD_COUNT), TU_ANY);
        TU_CHECK(tabai_ohta_init(&good, p, n) == TABAI_OK, "tabai_ohta_init", n, TU_V("p", p, n));
        RN = n;
        R = tu_buf_new(n);
        tu_operand(a, p, n, TU_OP_UNIFORM);
        uint64_t big[NMAX];
        memcpy(big, p, n * 8);
        EXPECT(tabai_ohta_mul(&good, R, big, a), TABAI_ERR_RANGE, "tabai_ohta_mul a = p");
        EXPECT(tabai_ohta_mul(&good, R, a, big), TABAI_ERR_RANGE, "tabai_ohta_mul b = p");
        EXPECT(tabai_ohta_sqr(&good, R, big), TABAI_ERR_RANGE, "tabai_ohta_sqr a = p");
        EXPECT(tabai_ohta_mul(NULL, R, a, a), TABAI_ERR_NULL, "tabai_ohta_mul ctx NULL");
        EXPECT(tabai_ohta_mul(&good, R, NULL, a), TABAI_ERR_NULL, "tabai_ohta_mul a NULL");
        EXPECT(tabai_ohta_mul(&good, R, a, NULL), TABAI_ERR_NULL, "tabai_ohta_mul b NULL");
        TU_CHECK(tabai_ohta_mul(&good, NULL, a, a) == TABAI_ERR_NULL, "tabai_ohta_mul r NULL", n, TU_NOV);
        EXPECT(tabai_ohta_sqr(NULL, R, a), TABAI_ERR_NULL, "tabai_ohta_sqr ctx NULL");
        EXPECT(tabai_ohta_sqr(&good, R, NULL), TABAI_ERR_NULL, "tabai_ohta_sqr a NULL");
        EXPECT(tabai_ohta_add(&good, R, big, a), TABAI_ERR_RANGE, "tabai_ohta_add a = p");
        EXPECT(tabai_ohta_add(&good, R, a, big), TABAI_ERR_RANGE, "tabai_ohta_add b = p");
        EXPECT(tabai_ohta_sub(&good, R, big, a), TABAI_ERR_RANGE, "tabai_ohta_sub a = p");
        EXPECT(tabai_ohta_sub(&good, R, a, big), TABAI_ERR_RANGE, "tabai_ohta_sub b = p");
        EXPECT(tabai_ohta_neg(&good, R, big), TABAI_ERR_RANGE, "tabai_ohta_neg a = p");
        EXPECT(tabai_ohta_add(NULL, R, a, a), TABAI_ERR_NULL, "tabai_ohta_add ctx NULL");
        EXPECT(tabai_ohta_add(&good, R, NULL, a), TABAI_ERR_NULL, "tabai_ohta_add a NULL");
        EXPECT(tabai_ohta_add(&good, R, a, NULL), TABAI_ERR_NULL, "tabai_ohta_add b NULL");
        TU_CHECK(tabai_ohta_add(&good, NULL, a, a) == TABAI_ERR_NULL, "tabai_ohta_add r NULL", n, TU_NOV);
        EXPECT(tabai_ohta_sub(NULL, R, a, a), TABAI_ERR_NULL, "tabai_ohta_sub ctx NULL");
        EXPECT(tabai_ohta_sub(&good, R, NULL, a), TABAI_ERR_NULL, "tabai_ohta_sub a NULL");
        EXPECT(tabai_ohta_sub(&good, R, a, NULL), TABAI_ERR_NULL, "tabai_ohta_sub b NULL");
        TU_CHECK(tabai_ohta_sub(&good, NULL, a, a) == TABAI_ERR_NULL, "tabai_ohta_sub r NULL", n, TU_NOV);
        EXPECT(tabai_ohta_neg(NULL, R, a), TABAI_ERR_NULL, "tabai_ohta_neg ctx NULL");
        EXPECT(tabai_ohta_neg(&good, R, NULL), TABAI_ERR_NULL, "tabai_ohta_neg a NULL");
        TU_CHECK(tabai_ohta_neg(&good, NULL, a) == TABAI_ERR_NULL, "tabai_ohta_neg r NULL", n, TU_NOV);
        /* reduce: x >= p*R */
        memset(x, 0, n * 8);
        memcpy(x + n, p, n * 8);
        EXPECT(tabai_ohta_reduce(&good, R, x), TABAI_ERR_RANGE, "tabai_ohta_reduce x = p*R");
        memset(x, 0xff, 2 * n * 8);
        EXPECT(tabai_ohta_reduce(&good, R, x), TABAI_ERR_RANGE, "tabai_ohta_reduce x = 2^(128n)-1");
        EXPECT(tabai_ohta_reduce(&good, R, NULL), TABAI_ERR_NULL, "tabai_ohta_reduce x NULL");
        EXPECT(tabai_ohta_reduce(NULL, R, x), TABAI_ERR_NULL, "tabai_ohta_reduce ctx NULL");
        /* powmod */
        uint64_t e[2] = {0xfedcba9876543210u, 1};
        size_t sl = tabai_powmod_scratch_limbs(n, 65);
        uint64_t *scr = malloc(sl * 8);
        EXPECT(tabai_ohta_powmod(&good, R, big, e, 65, scr, sl), TABAI_ERR_RANGE, "tabai_ohta_powmod b = p");
        EXPECT(tabai_ohta_powmod_vartime(&good, R, big, e, 65, scr, sl), TABAI_ERR_RANGE,
               "tabai_ohta_powmod_vartime b = p");
        EXPECT(tabai_ohta_powmod(NULL, R, a, e, 65, scr, sl), TABAI_ERR_NULL, "tabai_ohta_powmod ctx NULL");
        EXPECT(tabai_ohta_powmod(&good, R, a, NULL, 65, scr, sl), TABAI_ERR_NULL, "tabai_ohta_powmod e NULL");
        EXPECT(tabai_ohta_powmod(&good, R, a, e, 65, NULL, sl), TABAI_ERR_NULL, "tabai_ohta_powmod scratch NULL");
        EXPECT(tabai_ohta_powmod_vartime(&good, R, NULL, e, 65, scr, sl), TABAI_ERR_NULL,
               "tabai_ohta_powmod_vartime b NULL");
        EXPECT(tabai_ohta_powmod(&good, R, a, e, 2 * 64 * NMAX + 1, scr, sl), TABAI_ERR_SIZE,
               "tabai_ohta_powmod ebits too long");
        EXPECT(tabai_ohta_powmod(&good, R, a, e, 65, scr, sl - 1), TABAI_ERR_SCRATCH,
               "tabai_ohta_powmod scratch one limb short");
        EXPECT(tabai_ohta_powmod_vartime(&good, R, a, e, 65, scr, sl - 1), TABAI_ERR_SCRATCH,
               "tabai_ohta_powmod_vartime scratch one limb short");
        free(scr);
        tu_buf_free(R);
    }
}

static void powmod_any_errors(void) {
    uint64_t m[NMAX + 1], b[NMAX + 1], e[2] = {12345, 0};
    size_t n = 3;
    tu_modulus(m, n, TU_MOD_UNIFORM, TU_ANY);
    tu_fill(b, n, TU_UNIFORM);
    RN = n;
    R = tu_buf_new(n);
    int fired_count = 0;
    for (int vt = 0; vt < 2; vt++) {
#define PM(r, b, e, eb, m, n) (vt ? tabai_powmod_vartime(r, b, e, eb, m, n) : tabai_powmod(r, b, e, eb, m, n))
        EXPECT(PM(R, NULL, e, 14, m, n), TABAI_ERR_NULL, "tabai_powmod b NULL");
        EXPECT(PM(R, b, NULL, 14, m, n), TABAI_ERR_NULL, "tabai_powmod e NULL");
        EXPECT(PM(R, b, e, 14, NULL, n), TABAI_ERR_NULL, "tabai_powmod m NULL");
        TU_CHECK(PM(NULL, b, e, 14, m, n) == TABAI_ERR_NULL, "tabai_powmod r NULL", n, TU_NOV);
        EXPECT(PM(R, b, e, 14, m, 0), TABAI_ERR_SIZE, "tabai_powmod n = 0");
        EXPECT(PM(R, b, e, 2 * 64 * NMAX + 1, m, n), TABAI_ERR_SIZE, "tabai_powmod ebits too long");
        uint64_t z[NMAX] = {0};
        EXPECT(PM(R, b, e, 14, z, n), TABAI_ERR_MODULUS, "tabai_powmod m = 0");
        /* allocation failures: each of the first three mallocs */
        for (int k = 0; k < 3; k++) {
            fail_countdown = k;
            arm();
            tabai_status s = PM(R, b, e, 14, m, n);
            int fired = fail_countdown == -1;
            fired_count += fired;
            fail_countdown = -1;
            uint64_t sv = (uint64_t)(int64_t)s, kk = (uint64_t)k;
            if (fired)
                TU_CHECK(s == TABAI_ERR_ALLOC && untouched(), "tabai_powmod malloc fails: TABAI_ERR_ALLOC",
                         n, TU_V("malloc call", &kk, 1), TU_V("status", &sv, 1));
            else
                TU_CHECK(s == TABAI_OK, "tabai_powmod with fewer mallocs", n, TU_V("status", &sv, 1));
        }
#undef PM
    }
    TU_CHECK(fired_count >= 4, "malloc failure injection reached the library", n, TU_NOV);
    tu_buf_free(R);
    /* n = 129 */
    static uint64_t mb[NMAX + 1], bb[NMAX + 1];
    tu_fill(mb, NMAX + 1, TU_UNIFORM);
    mb[NMAX] |= 1;
    RN = NMAX + 1;
    R = tu_buf_new(RN);
    EXPECT(tabai_powmod(R, bb, e, 14, mb, NMAX + 1), TABAI_ERR_SIZE, "tabai_powmod n = 129");
    EXPECT(tabai_inv_vartime(R, bb, mb, NMAX + 1), TABAI_ERR_SIZE, "tabai_inv_vartime n = 129");
    tu_buf_free(R);
    /* inv_prime allocation failure */
    static tabai_mont mc;
    tu_modulus(m, n, TU_MOD_UNIFORM, TU_ODD);
    (void)!tabai_mont_init(&mc, m, n);
    tu_operand(b, m, n, TU_OP_UNIFORM);
    if (!(b[0] | b[1] | b[2])) b[0] = 1;
    RN = n;
    R = tu_buf_new(n);
    fail_countdown = 0;
    EXPECT(tabai_mont_inv_prime(&mc, R, b), TABAI_ERR_ALLOC, "tabai_mont_inv_prime malloc fails");
    fail_countdown = -1;
    tu_buf_free(R);
}

static void inv_vartime_errors(void) {
    uint64_t m[4], a[4];
    size_t n = 2;
    RN = n;
    R = tu_buf_new(n);
    tu_modulus(m, n, TU_MOD_UNIFORM, TU_ODD);
    tu_operand(a, m, n, TU_OP_UNIFORM);
    EXPECT(tabai_inv_vartime(R, NULL, m, n), TABAI_ERR_NULL, "tabai_inv_vartime a NULL");
    EXPECT(tabai_inv_vartime(R, a, NULL, n), TABAI_ERR_NULL, "tabai_inv_vartime m NULL");
    TU_CHECK(tabai_inv_vartime(NULL, a, m, n) == TABAI_ERR_NULL, "tabai_inv_vartime r NULL", n, TU_NOV);
    EXPECT(tabai_inv_vartime(R, a, m, 0), TABAI_ERR_SIZE, "tabai_inv_vartime n = 0");
    EXPECT(tabai_inv_vartime(R, m, m, n), TABAI_ERR_RANGE, "tabai_inv_vartime a = m");
    uint64_t z[2] = {0, 0}, one[2] = {1, 0}, six[2] = {6, 0}, two[2] = {2, 0}, four[2] = {4, 0},
             nine[2] = {9, 0}, three[2] = {3, 0};
    EXPECT(tabai_inv_vartime(R, z, z, n), TABAI_ERR_MODULUS, "tabai_inv_vartime m = 0");
    EXPECT(tabai_inv_vartime(R, z, one, n), TABAI_ERR_MODULUS, "tabai_inv_vartime m = 1");
    EXPECT(tabai_inv_vartime(R, z, m, n), TABAI_ERR_NOINV, "tabai_inv_vartime a = 0");
    EXPECT(tabai_inv_vartime(R, two, six, n), TABAI_ERR_NOINV, "tabai_inv_vartime 2 mod 6");
    EXPECT(tabai_inv_vartime(R, three, six, n), TABAI_ERR_NOINV, "tabai_inv_vartime 3 mod 6");
    EXPECT(tabai_inv_vartime(R, two, four, n), TABAI_ERR_NOINV, "tabai_inv_vartime 2 mod 4");
    EXPECT(tabai_inv_vartime(R, three, nine, n), TABAI_ERR_NOINV, "tabai_inv_vartime 3 mod 9");
    tu_buf_free(R);
}

static void misc_errors(void) {
    TU_CHECK(tabai_cpu_set_tier((tabai_tier)-1) == TABAI_ERR_TIER, "tabai_cpu_set_tier(-1)", 0, TU_NOV);
    TU_CHECK(tabai_cpu_set_tier((tabai_tier)TABAI_TIER_COUNT) == TABAI_ERR_TIER,
             "tabai_cpu_set_tier(TABAI_TIER_COUNT)", 0, TU_NOV);
    TU_CHECK(tabai_cpu_tier() == tu_expected_tier(), "a refused tabai_cpu_set_tier changes nothing", 0,
             TU_NOV);
    TU_CHECK(tabai_tier_name((tabai_tier)-1) == NULL && tabai_tier_name((tabai_tier)TABAI_TIER_COUNT) == NULL,
             "tabai_tier_name out of range", 0, TU_NOV);
    TU_CHECK(tabai_tier_parse(NULL) == -1 && tabai_tier_parse("") == -1 && tabai_tier_parse("GENERIC") == -1 &&
                 tabai_tier_parse("avx") == -1,
             "tabai_tier_parse unknown", 0, TU_NOV);
    TU_CHECK(tabai_kernel_name((tabai_kernel)-1) == NULL &&
                 tabai_kernel_name((tabai_kernel)TABAI_KERNEL_COUNT) == NULL &&
                 tabai_kernel_symbol(TABAI_KERNEL_AUTO) == NULL &&
                 tabai_kernel_symbol((tabai_kernel)TABAI_KERNEL_COUNT) == NULL &&
                 tabai_kernel_parse("no-such-kernel") == -1 && tabai_kernel_parse(NULL) == -1,
             "tabai_kernel_name/symbol/parse out of range", 0, TU_NOV);
    TU_CHECK(tabai_kernel_available((tabai_kernel)TABAI_KERNEL_COUNT) == TABAI_ERR_KERNEL &&
                 tabai_kernel_available((tabai_kernel)-1) == TABAI_ERR_KERNEL,
             "tabai_kernel_available out of range", 0, TU_NOV);
    /* tabai_mul_with / tabai_ohta_mul_with */
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    RN = 8;
    R = tu_buf_new(RN);
    EXPECT(tabai_mul_with(TABAI_KERNEL_C16, R, NULL, b, 4), TABAI_ERR_NULL, "tabai_mul_with a NULL");
    EXPECT(tabai_mul_with(TABAI_KERNEL_C16, R, a, b, 0), TABAI_ERR_SIZE, "tabai_mul_with n = 0");
    EXPECT(tabai_mul_with((tabai_kernel)TABAI_KERNEL_COUNT, R, a, b, 4), TABAI_ERR_KERNEL,
           "tabai_mul_with unknown kernel");
    EXPECT(tabai_mul_with(TABAI_KERNEL_CARRY_SAVE_2X2, R, a, b, 4), TABAI_ERR_KERNEL,
           "tabai_mul_with an Ohta kernel");
    for (int k = 1; k < TABAI_KERNEL_COUNT; k++) {
        if (tabai_kernel_available((tabai_kernel)k) != TABAI_ERR_TIER) continue;
        EXPECT(tabai_mul_with((tabai_kernel)k, R, a, b, 4), TABAI_ERR_TIER,
               "tabai_mul_with a kernel above the tier in use");
    }
    tu_buf_free(R);
    static tabai_ohta oc;
    uint64_t p[4] = {0x1234567, 0, 0, 0x10};
    (void)!tabai_ohta_init(&oc, p, 4);
    RN = 4;
    R = tu_buf_new(RN);
    EXPECT(tabai_ohta_mul_with(TABAI_KERNEL_C16, &oc, R, a, b), TABAI_ERR_KERNEL,
           "tabai_ohta_mul_with a mul kernel");
    EXPECT(tabai_ohta_mul_with(TABAI_KERNEL_CARRY_SAVE_2X2, &oc, R, p, b), TABAI_ERR_RANGE,
           "tabai_ohta_mul_with a = p");
    EXPECT(tabai_ohta_mul_with(TABAI_KERNEL_CARRY_SAVE_2X2, NULL, R, a, b), TABAI_ERR_NULL,
           "tabai_ohta_mul_with ctx NULL");
    tu_buf_free(R);
}


/* ---- every allocating entry point under allocation failure ---- */

/* Runs f with the (k+1)-th allocation failing, k = 0, 1, ... until a run needs no failing
 * allocation: each failing run must return TABAI_ERR_ALLOC with the outputs (R) untouched,
 * the last TABAI_OK; every run leaks nothing and wipes every block it frees. */
typedef tabai_status (*entry_fn)(void);
static void inject(const char *what, entry_fn f) {
    int k = 0;
    for (; k < 40; k++) {
        arm();
        fail_countdown = k;
        tracking_begin();
        tabai_status s = f();
        tracking_end();
        int fired = fail_countdown == -1;
        fail_countdown = -1;
        uint64_t sv = (uint64_t)(int64_t)s, kk = (uint64_t)k, lv = live_blocks, uw = unwiped_frees;
        tu_note("%s, allocation %d fails", what, k);
        if (fired)
            TU_CHECK(s == TABAI_ERR_ALLOC && untouched(), "allocation fails: TABAI_ERR_ALLOC, outputs untouched",
                     RN, TU_V("allocation", &kk, 1), TU_V("status", &sv, 1));
        else
            TU_CHECK(s == TABAI_OK, "every allocation succeeds: TABAI_OK", RN, TU_V("status", &sv, 1));
        TU_CHECK(live_blocks == 0 && untracked_blocks == 0, "nothing leaked", RN, TU_V("blocks alive", &lv, 1));
        TU_CHECK(unwiped_frees == 0, "every freed block wiped (tabai_wipe) before free", RN,
                 TU_V("unwiped blocks", &uw, 1));
        tu_note("%s", "");
        if (!fired) break;
    }
    uint64_t kk = (uint64_t)k;
    tu_note("%s", what);
    TU_CHECK(k >= 1 && k < 40, "the entry point allocates (failure injection reached it)", RN,
             TU_V("allocations", &kk, 1));
    tu_note("%s", "");
}

#define IN 3 /* limbs of the operands below */
static uint64_t in_m[2][IN], in_b[IN], in_e[IN];
static uint64_t big_m[NMAX + 2], big_b[NMAX + 2];
static tabai_mont in_mc;
static tabai_rsa_key in_key;
#define RSA_H 8 /* limbs of each prime of the RSA key below (a 1024-bit N, the smallest) */
static uint64_t in_c[2 * RSA_H];
static int in_vt, in_even;

static tabai_status e_powmod(void) {
    const uint64_t *m = in_m[in_even];
    return in_vt ? tabai_powmod_vartime(R, in_b, in_e, 150, m, IN) : tabai_powmod(R, in_b, in_e, 150, m, IN);
}
static tabai_status e_inv_prime(void) { return tabai_mont_inv_prime(&in_mc, R, in_b); }
static tabai_status e_modmul_batch(void) {
    uint64_t *r[3] = {R, R + IN, R + 2 * IN};
    const uint64_t *a[3] = {in_b, in_b, in_b}, *m[3] = {in_m[0], in_m[0], in_m[0]};
    return tabai_modmul_batch(3, r, a, a, m, IN);
}
static tabai_status e_powmod_batch(void) {
    uint64_t *r[3] = {R, R + IN, R + 2 * IN};
    const uint64_t *b[3] = {in_b, in_b, in_b}, *e[3] = {in_e, in_e, in_e};
    const uint64_t *m[3] = {in_m[0], in_m[0], in_m[0]};
    return tabai_powmod_batch(3, r, b, e, 150, m, IN, 1);
}
static tabai_status e_powmod_batch_long(void) { /* above 4096 bits: the scalar loop */
    uint64_t *r[2] = {R, R + NMAX};
    const uint64_t *b[2] = {big_b, big_b}, *e[2] = {in_e, in_e}, *m[2] = {big_m, big_m};
    return tabai_powmod_batch(2, r, b, e, 150, m, NMAX, 1);
}
static tabai_status e_rsa(void) {
    uint64_t *m[2] = {R, R + 2 * RSA_H};
    const uint64_t *c[2] = {in_c, in_c};
    tabai_rsa_key *k[2] = {&in_key, &in_key};
    return tabai_rsa_private_batch(2, m, c, k, 1);
}

/* an RSA key of two h-limb primes with their top bits set, e = 65537 */
static void make_rsa_key(tabai_rsa_key *key, uint64_t *n_out, size_t h) {
    mpz_t p, q, t, phi, d, x;
    mpz_inits(p, q, t, phi, d, x, NULL);
    uint64_t l[2 * RSA_H];
    do {
        for (int i = 0; i < 2; i++) {
            mpz_ptr z = i ? q : p;
            for (size_t j = 0; j < h; j++) l[j] = tu_rand();
            l[h - 1] |= (uint64_t)3 << 62;
            tu_to_mpz(z, l, h);
            mpz_nextprime(z, z);
        }
        mpz_sub_ui(phi, p, 1), mpz_sub_ui(t, q, 1), mpz_mul(phi, phi, t);
        mpz_set_ui(t, 65537);
    } while (mpz_sizeinbase(p, 2) != 64 * h || mpz_sizeinbase(q, 2) != 64 * h || !mpz_cmp(p, q) ||
             !mpz_invert(d, t, phi));
    const size_t nl = 2 * h; /* every parameter as an nl-limb number */
    uint64_t N[2 * RSA_H], D[2 * RSA_H], P[2 * RSA_H], Q[2 * RSA_H], DP[2 * RSA_H],
        DQ[2 * RSA_H], QI[2 * RSA_H];
    mpz_mul(x, p, q), tu_from_mpz(N, nl, x);
    tu_from_mpz(D, nl, d), tu_from_mpz(P, nl, p), tu_from_mpz(Q, nl, q);
    mpz_sub_ui(t, p, 1), mpz_mod(x, d, t), tu_from_mpz(DP, nl, x);
    mpz_sub_ui(t, q, 1), mpz_mod(x, d, t), tu_from_mpz(DQ, nl, x);
    mpz_invert(x, q, p), tu_from_mpz(QI, nl, x);
    TU_CHECK(tabai_rsa_key_init(key, N, 65537, D, P, Q, DP, DQ, QI, nl) == TABAI_OK,
             "tabai_rsa_key_init", h, TU_NOV);
    mpz_mul(x, p, q), mpz_sub_ui(x, x, 12345), tu_from_mpz(n_out, 2 * h, x); /* c = N - 12345 */
    mpz_clears(p, q, t, phi, d, x, NULL);
}

static void alloc_failures(void) {
    tu_modulus(in_m[0], IN, TU_MOD_UNIFORM, TU_ODD);
    tu_modulus(in_m[1], IN, TU_MOD_UNIFORM, TU_EVEN);
    tu_operand(in_b, in_m[0], IN, TU_OP_UNIFORM);
    in_b[0] |= 1; /* != 0: invertible mod a prime */
    tu_fill(in_e, IN, TU_UNIFORM);
    tu_modulus(big_m, NMAX, TU_MOD_UNIFORM, TU_ODD);
    tu_operand(big_b, big_m, NMAX, TU_OP_UNIFORM);
    RN = 3 * IN;
    R = tu_buf_new(RN);
    for (in_even = 0; in_even < 2; in_even++)
        for (in_vt = 0; in_vt < 2; in_vt++)
            inject(in_vt ? "tabai_powmod_vartime" : "tabai_powmod", e_powmod);
    /* a prime modulus for the inversion */
    mpz_t p;
    mpz_init(p);
    tu_to_mpz(p, in_m[0], IN), mpz_nextprime(p, p);
    uint64_t pl[IN + 1] = {0};
    tu_from_mpz(pl, IN + 1, p);
    if (pl[IN] == 0) {
        (void)!tabai_mont_init(&in_mc, pl, IN);
        tu_operand(in_b, pl, IN, TU_OP_UNIFORM);
        in_b[0] |= 1;
        inject("tabai_mont_inv_prime", e_inv_prime);
    }
    mpz_clear(p);
    tu_operand(in_b, in_m[0], IN, TU_OP_UNIFORM);
    inject("tabai_modmul_batch", e_modmul_batch);
    inject("tabai_powmod_batch", e_powmod_batch);
    tu_buf_free(R);
    RN = 2 * NMAX;
    R = tu_buf_new(RN);
    inject("tabai_powmod_batch above 4096 bits", e_powmod_batch_long);
    tu_buf_free(R);
    make_rsa_key(&in_key, in_c, RSA_H);
    RN = 4 * RSA_H;
    R = tu_buf_new(RN);
    inject("tabai_rsa_private_batch", e_rsa);
    tu_buf_free(R);
    tabai_rsa_key_clear(&in_key);
}

/* The raw products above TABAI_MAX_LIMBS allocate their Karatsuba scratch: with the
 * allocation failing they fall back to rows without scratch, same result, nothing leaked;
 * the scratch (differences of the operands) is wiped before free. */
static void big_product_fallback(void) {
    static const size_t sizes[] = {129, 300};
    for (size_t si = 0; si < 2; si++) {
        size_t n = sizes[si];
        uint64_t *a = malloc(8 * n), *b = malloc(8 * n), *r = malloc(16 * n), *w = malloc(16 * n);
        tu_fill(a, n, TU_UNIFORM), tu_fill(b, n, TU_ONES);
        for (int op = 0; op < 3; op++) {
            if (op == 1) mpn_sqr((mp_limb_t *)w, (const mp_limb_t *)a, n);
            else mpn_mul_n((mp_limb_t *)w, (const mp_limb_t *)a, (const mp_limb_t *)b, n);
            for (int fail = 0; fail < 2; fail++) {
                memset(r, 0x77, 16 * n);
                fail_countdown = fail ? 0 : -1;
                tracking_begin();
                if (op == 0) tabai_mul_n(r, a, b, n);
                else if (op == 1) tabai_sqr_n(r, a, n);
                else tabai_mul(r, a, n, b, n);
                tracking_end();
                int fired = fail_countdown == -1 && fail;
                fail_countdown = -1;
                uint64_t o = (uint64_t)op;
                tu_note("%s, allocation %s", op == 0 ? "tabai_mul_n" : op == 1 ? "tabai_sqr_n" : "tabai_mul",
                        fail ? "fails" : "succeeds");
                TU_CHECK(tu_eq_n(r, w, 2 * n) && (fail ? fired : 1), "product above TABAI_MAX_LIMBS", n,
                         TU_V("op", &o, 1));
                TU_CHECK(live_blocks == 0 && unwiped_frees == 0 && untracked_blocks == 0,
                         "product above TABAI_MAX_LIMBS: scratch wiped and freed", n, TU_V("op", &o, 1));
                tu_note("%s", "");
            }
        }
        free(a), free(b), free(r), free(w);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    tu_init(argv[0]);
    status_strings();
    bytes_errors();
    mont_errors();
    ohta_errors();
    powmod_any_errors();
    inv_vartime_errors();
    misc_errors();
    alloc_failures();
    big_product_fallback();
    return tu_finish();
}
