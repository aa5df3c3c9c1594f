/* Numbers as the traces print them: exactly the text of
 * snprintf("%.9g", (double)f), since 9 significant digits are enough for any
 * 32-bit float to read back exactly (FLT_DECIMAL_DIG). The trace format is a
 * user contract, so this is a faster route to the same characters, not a
 * different format.
 *
 * How: the float's exact value v (a double holds it exactly) is scaled by
 * 10^k so that it has 9 digits before the point, and rounded to an integer.
 * The scaled double carries a relative error below 2^-52 (the table's 10^k
 * and the product are each rounded once), i.e. less than 2.3e-6 in absolute
 * terms below 10^10 (it stays below 2 * 10^9); so unless the fraction lies within VX_TIE_MARGIN of one
 * half, the rounding is the one of the exact value. Near a half (exact ties
 * such as 1234567.125 and rare near-ties) an exact comparison with small big
 * integers decides, round-half-even as glibc does. Then %g's rules: fixed
 * notation for decimal exponents -4..8, else d.dddddddde+XX, trailing zeros
 * and a bare point removed. */
#include <stdint.h>
#include <string.h>

#include "voltex/trace.h"

#define VX_PRECISION 9                /* significant digits of %.9g */
#define VX_TEN_TO_8 100000000u        /* smallest 9-digit integer */
#define VX_TEN_TO_9 1000000000u       /* smallest 10-digit integer */
#define VX_TIE_MARGIN 1e-5            /* > 2.3e-6, the worst error of the scaled double */
#define VX_FORMAT_SCRATCH 32          /* bytes written at most: the longest text,
                                         "-1.23456789e-45" (15), plus the
                                         overshoot of fixed-size digit copies */

/* 10^k for k = VX_POW10_MIN..VX_POW10_MAX, as the nearest doubles (exact up
 * to 10^22). A float is 1.4e-45..3.4e38, so k = 8 - X with the decimal
 * exponent X in -45..38, one more either way for the adjustment below. */
#define VX_POW10_MIN (-31)
#define VX_POW10_MAX 54
static const double pow10_table[VX_POW10_MAX - VX_POW10_MIN + 1] = {
    1e-31, 1e-30, 1e-29, 1e-28, 1e-27, 1e-26, 1e-25, 1e-24, 1e-23, 1e-22, 1e-21, 1e-20, 1e-19, 1e-18, 1e-17,
    1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9,  1e-8,  1e-7,  1e-6,  1e-5,  1e-4,  1e-3,  1e-2,
    1e-1,  1e0,   1e1,   1e2,   1e3,   1e4,   1e5,   1e6,   1e7,   1e8,   1e9,   1e10,  1e11,  1e12,  1e13,
    1e14,  1e15,  1e16,  1e17,  1e18,  1e19,  1e20,  1e21,  1e22,  1e23,  1e24,  1e25,  1e26,  1e27,  1e28,
    1e29,  1e30,  1e31,  1e32,  1e33,  1e34,  1e35,  1e36,  1e37,  1e38,  1e39,  1e40,  1e41,  1e42,  1e43,
    1e44,  1e45,  1e46,  1e47,  1e48,  1e49,  1e50,  1e51,  1e52,  1e53,  1e54,
};

/* ---- exact comparison (the rare path) ---- */

/* An unsigned integer of up to 256 bits, 32-bit limbs, least significant
 * first. The largest number compared is below 2^150. */
#define VX_BIG_LIMBS 8
typedef struct {
    uint32_t limb[VX_BIG_LIMBS];
} big_uint;

static void big_set(big_uint *b, uint64_t v)
{
    memset(b, 0, sizeof *b);
    b->limb[0] = (uint32_t)v;
    b->limb[1] = (uint32_t)(v >> 32);
}

static void big_mul_small(big_uint *b, uint32_t factor)
{
    uint64_t carry = 0;
    for (int i = 0; i < VX_BIG_LIMBS; i++) {
        uint64_t product = (uint64_t)b->limb[i] * factor + carry;
        b->limb[i] = (uint32_t)product;
        carry = product >> 32;
    }
}

static void big_mul_pow5(big_uint *b, int n)
{
    for (; n >= 13; n -= 13) big_mul_small(b, 1220703125u); /* 5^13, the largest power of 5 in 32 bits */
    uint32_t rest = 1;
    for (; n > 0; n--) rest *= 5u;
    big_mul_small(b, rest);
}

static void big_shift_left(big_uint *b, int bits)
{
    big_uint shifted;
    memset(&shifted, 0, sizeof shifted);
    int words = bits / 32, shift = bits % 32;
    for (int i = 0; i + words < VX_BIG_LIMBS; i++) {
        uint64_t moved = (uint64_t)b->limb[i] << shift;
        shifted.limb[i + words] |= (uint32_t)moved;
        if (i + words + 1 < VX_BIG_LIMBS) shifted.limb[i + words + 1] |= (uint32_t)(moved >> 32);
    }
    *b = shifted;
}

static int big_compare(const big_uint *a, const big_uint *b)
{
    for (int i = VX_BIG_LIMBS - 1; i >= 0; i--)
        if (a->limb[i] != b->limb[i]) return a->limb[i] < b->limb[i] ? -1 : 1;
    return 0;
}

/* Rounds v * 10^k to an integer, v = mantissa * 2^exponent2, knowing that it
 * lies between candidate and candidate + 1: compares 2 * v * 10^k with
 * 2 * candidate + 1 exactly, ties to even. */
static uint64_t round_exactly(uint32_t mantissa, int exponent2, int k, uint64_t candidate)
{
    big_uint lhs, rhs;
    big_set(&lhs, mantissa);
    big_set(&rhs, 2u * candidate + 1u);
    if (k >= 0)
        big_mul_pow5(&lhs, k);
    else
        big_mul_pow5(&rhs, -k);
    int twos = exponent2 + 1 + k; /* 2 * 2^exponent2 * 2^k */
    if (twos >= 0)
        big_shift_left(&lhs, twos);
    else
        big_shift_left(&rhs, -twos);
    int c = big_compare(&lhs, &rhs);
    if (c > 0 || (c == 0 && (candidate & 1u))) return candidate + 1u;
    return candidate;
}

/* ---- digits ---- */

/* v * 10^k rounded to the nearest integer (ties to even, on the exact value). */
static uint64_t scaled_round(double v, uint32_t mantissa, int exponent2, int k)
{
    double y = v * pow10_table[k - VX_POW10_MIN];
    uint64_t whole = (uint64_t)(int64_t)y; /* 0 <= y < 2^35: exact truncation */
    double fraction = y - (double)whole;
    if (fraction < 0.5 - VX_TIE_MARGIN) return whole;
    if (fraction > 0.5 + VX_TIE_MARGIN) return whole + 1u;
    return round_exactly(mantissa, exponent2, k, whole);
}

/* floor(log10(2^e)), exact for every float exponent -149 <= e <= 127 (an
 * estimate one off would only cost the caller one more pass of its loop). */
static int floor_log10_pow2(int e)
{
    /* 78913 / 2^18 is log10(2) to 6 digits. */
    if (e >= 0) return (int)(((uint32_t)e * 78913u) >> 18);
    return -(int)((((uint32_t)-e * 78913u) + (1u << 18) - 1u) >> 18);
}

/* Writes the 9 digits of n (10^8 <= n < 10^9) to out. */
static void nine_digits(uint32_t n, char *out)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    for (int i = 7; i >= 1; i -= 2) {
        uint32_t pair = n % 100u;
        n /= 100u;
        out[i] = pairs[2u * pair];
        out[i + 1] = pairs[2u * pair + 1u];
    }
    out[0] = (char)('0' + n);
}

/* The text of a finite, non-zero |f| into out (no sign); returns its length.
 * out has room for VX_FORMAT_SCRATCH bytes: the digits are placed with
 * fixed-size copies that may write past the end of the text. */
static int format_magnitude(uint32_t bits, char *out)
{
    uint32_t biased = (bits >> 23) & 0xffu;
    uint32_t mantissa = bits & 0x7fffffu;
    int exponent2, top; /* v = mantissa * 2^exponent2, 2^top <= v < 2^(top + 1) */
    if (biased != 0) {
        mantissa |= 0x800000u;
        exponent2 = (int)biased - 150;
        top = exponent2 + 23;
    } else {
        exponent2 = -149;
        top = 22;
        while (!(mantissa >> top)) top--;
        top += exponent2;
    }
    float magnitude;
    memcpy(&magnitude, &bits, sizeof magnitude);
    double v = (double)magnitude; /* exact */

    /* Decimal exponent x: floor(log10 v), or one more; 10^(8 - x) * v then
     * has 9 or 10 digits before the point. With 10 (or a rounding up to
     * 10^9) the next exponent is taken, where 1.00000000 comes out either
     * way, as %g's exponent is the one after rounding. */
    int x = floor_log10_pow2(top);
    uint64_t n;
    for (;;) {
        n = scaled_round(v, mantissa, exponent2, 8 - x);
        if (n >= VX_TEN_TO_9)
            x++;
        else if (n < VX_TEN_TO_8)
            x--;
        else
            break;
    }

    char digits[VX_PRECISION + 8]; /* the 9 digits, then padding the copies below may read */
    nine_digits((uint32_t)n, digits);
    memset(digits + VX_PRECISION, '0', 8);
    int significant = VX_PRECISION; /* digits left once trailing zeros go */
    while (significant > 1 && digits[significant - 1] == '0') significant--;

    if (x < -4 || x >= VX_PRECISION) { /* d.dddddddde+XX */
        out[0] = digits[0];
        out[1] = '.';
        memcpy(out + 2, digits + 1, VX_PRECISION - 1);
        int len = significant > 1 ? significant + 1 : 1;
        out[len++] = 'e';
        out[len++] = x < 0 ? '-' : '+';
        int ax = x < 0 ? -x : x; /* at most 45: always two digits */
        out[len++] = (char)('0' + ax / 10);
        out[len++] = (char)('0' + ax % 10);
        return len;
    }
    if (x >= 0) { /* x + 1 digits, then the point and the rest */
        int whole = x + 1;
        memcpy(out, digits, VX_PRECISION);
        memcpy(out + whole + 1, digits + whole, VX_PRECISION - 1);
        out[whole] = '.';
        return significant > whole ? significant + 1 : whole;
    }
    /* 0.000ddddddddd: -x - 1 zeros after the point */
    memcpy(out, "0.000", 5);
    memcpy(out + 1 - x, digits, VX_PRECISION);
    return 1 - x + significant;
}

/* Sign, zero, infinity and NaN (glibc's "nan" and "-nan"), else the number. */
static int format_any(char *out, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    int len = 0;
    if (bits >> 31) out[len++] = '-';
    uint32_t magnitude = bits & 0x7fffffffu;
    if (magnitude == 0) {
        out[len++] = '0';
    } else if (magnitude >= 0x7f800000u) {
        memcpy(out + len, magnitude == 0x7f800000u ? "inf" : "nan", 3);
        len += 3;
    } else {
        len += format_magnitude(magnitude, out + len);
    }
    return len;
}

int vx_format_float(char *buf, size_t size, float f)
{
    if (size >= VX_FORMAT_SCRATCH) { /* the writers' case: straight into buf */
        int len = format_any(buf, f);
        buf[len] = '\0';
        return len;
    }
    /* snprintf's contract for a small buffer: at most size - 1 characters
     * and a NUL; returns the full length. */
    char text[VX_FORMAT_SCRATCH];
    int len = format_any(text, f);
    if (size > 0) {
        size_t copy = (size_t)len < size - 1 ? (size_t)len : size - 1;
        memcpy(buf, text, copy);
        buf[copy] = '\0';
    }
    return len;
}

float vx_trace_frame_time(int64_t frame, float dt)
{
    /* In double, then rounded once, so time does not drift with k. */
    return (float)((double)frame * (double)dt);
}
