/* The inversions of field.h: Bernstein-Yang safegcd (src/mod/safegcd.c) on the residue,
 * brought back to the field's form. In Montgomery form the input is a R, its plain inverse
 * a^-1 R^-1, and two Montgomery products by R^2 give a^-1 R^-1 R^2 R^-1 R^2 R^-1 = a^-1 R.
 * P-521's field holds plain residues: the plain inverse is the result. Fermat (a^(p-2) by
 * tabai_ec_pow) was slower at every curve and tier (src/ec/README.md, Inversion). */
#include "../mod/mod.h"
#include "ec.h"
#include "field.h"

static void to_form(const tabai_ec_mod *m, uint64_t *r, int plain) {
    if (plain) return;
    fe_mul(m, r, r, m->rr);
    fe_mul(m, r, r, m->rr);
}

void tabai_ec_fe_inv_ct(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a) {
    tabai_modinv_safegcd(r, a, x->fp.m, x->fp.minv, x->c->pbits, x->c->n);
    to_form(&x->fp, r, x->c->form != TABAI_EC_FORM_MONT);
}
void tabai_ec_fe_inv_vartime(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a) {
    tabai_modinv_safegcd_vartime(r, a, x->fp.m, x->fp.minv, x->c->pbits, x->c->n);
    to_form(&x->fp, r, x->c->form != TABAI_EC_FORM_MONT);
}
void tabai_ec_scalar_inv_ct(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a) {
    tabai_modinv_safegcd(r, a, x->fq.m, x->fq.minv, x->c->qbits, x->c->n);
    to_form(&x->fq, r, 0);
}
void tabai_ec_scalar_inv_vartime(const tabai_ec_ctx *x, uint64_t *r, const uint64_t *a) {
    tabai_modinv_safegcd_vartime(r, a, x->fq.m, x->fq.minv, x->c->qbits, x->c->n);
    to_form(&x->fq, r, 0);
}
void tabai_ec_inv2_ct(const tabai_ec_ctx *x, uint64_t *zr, const uint64_t *za, uint64_t *kr,
                      const uint64_t *ka) {
    size_t bits = x->c->pbits > x->c->qbits ? x->c->pbits : x->c->qbits;
    tabai_modinv2_safegcd(zr, za, x->fp.m, x->fp.minv, kr, ka, x->fq.m, x->fq.minv, bits, x->c->n);
    to_form(&x->fp, zr, x->c->form != TABAI_EC_FORM_MONT);
    to_form(&x->fq, kr, 0);
}
