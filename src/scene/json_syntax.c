/* Strict JSON syntax check by recursive descent (depth bounded). */
#include "scene/json_syntax.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const unsigned char *s;
    size_t length;
    size_t pos;
    vx_json_syntax_error *out;
} checker;

static bool at_end(const checker *c) { return c->pos >= c->length; }

static bool fail(checker *c, size_t offset, const char *hint)
{
    c->out->offset = offset;
    snprintf(c->out->hint, sizeof c->out->hint, "%s", hint);
    return false;
}

/* "unexpected character 'x'" / "unexpected byte 0x01" / "unexpected end of input" at pos. */
static bool fail_unexpected(checker *c, const char *suffix)
{
    if (at_end(c)) return fail(c, c->length, "unexpected end of input");
    unsigned char b = c->s[c->pos];
    c->out->offset = c->pos;
    if (b == 0)
        snprintf(c->out->hint, sizeof c->out->hint, "unexpected NUL byte%s", suffix);
    else if (b >= 0x20 && b < 0x7f)
        snprintf(c->out->hint, sizeof c->out->hint, "unexpected character '%c'%s", (char)b, suffix);
    else
        snprintf(c->out->hint, sizeof c->out->hint, "unexpected byte 0x%02X%s", (unsigned)b, suffix);
    return false;
}

static void skip_whitespace(checker *c)
{
    while (!at_end(c)) {
        unsigned char b = c->s[c->pos];
        if (b != ' ' && b != '\t' && b != '\n' && b != '\r') break;
        c->pos++;
    }
}

static bool is_digit(unsigned char b) { return b >= '0' && b <= '9'; }

static int hex_value(unsigned char b)
{
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    if (b >= 'A' && b <= 'F') return b - 'A' + 10;
    return -1;
}

/* Reads the four hex digits after "\u" (pos at the 'u'); *code gets the value. */
static bool unicode_escape(checker *c, unsigned *code)
{
    c->pos++; /* 'u' */
    *code = 0;
    for (int i = 0; i < 4; i++) {
        if (at_end(c)) return fail(c, c->length, "unterminated string");
        int h = hex_value(c->s[c->pos]);
        if (h < 0) return fail(c, c->pos, "invalid \\u escape, expected 4 hex digits");
        *code = *code * 16u + (unsigned)h;
        c->pos++;
    }
    return true;
}

/* After a backslash (pos at the byte following it). */
static bool escape(checker *c)
{
    size_t backslash = c->pos - 1;
    if (at_end(c)) return fail(c, c->length, "unterminated string");
    unsigned char b = c->s[c->pos];
    if (b != 0 && strchr("\"\\/bfnrt", b)) {
        c->pos++;
        return true;
    }
    if (b != 'u') {
        if (b > 0x20 && b < 0x7f) {
            char hint[VX_JSON_HINT_MAX];
            snprintf(hint, sizeof hint, "invalid escape '\\%c'", (char)b);
            return fail(c, c->pos, hint);
        }
        return fail(c, c->pos, "invalid escape");
    }
    unsigned code;
    if (!unicode_escape(c, &code)) return false;
    /* cJSON would cut the C string short there: "a\u0000b" would read as "a". */
    if (code == 0) return fail(c, backslash, "\\u0000 is not allowed in strings");
    /* UTF-16 surrogates must come in high-low pairs (cJSON rejects lone ones). */
    if (code >= 0xDC00u && code <= 0xDFFFu) return fail(c, backslash, "unpaired surrogate in \\u escape");
    if (code >= 0xD800u && code <= 0xDBFFu) {
        if (c->length - c->pos < 2 || c->s[c->pos] != '\\' || c->s[c->pos + 1] != 'u')
            return fail(c, backslash, "unpaired surrogate in \\u escape");
        c->pos++;
        unsigned low;
        if (!unicode_escape(c, &low)) return false;
        if (low < 0xDC00u || low > 0xDFFFu) return fail(c, backslash, "unpaired surrogate in \\u escape");
    }
    return true;
}

static bool string(checker *c)
{
    c->pos++; /* opening quote */
    for (;;) {
        if (at_end(c)) return fail(c, c->length, "unterminated string");
        unsigned char b = c->s[c->pos];
        if (b == '"') {
            c->pos++;
            return true;
        }
        if (b == '\\') {
            c->pos++;
            if (!escape(c)) return false;
            continue;
        }
        if (b == '\n' || b == '\r') return fail(c, c->pos, "unterminated string (line break inside it)");
        if (b == 0) return fail(c, c->pos, "unexpected NUL byte");
        if (b < 0x20) return fail(c, c->pos, "control character in string (escape it)");
        c->pos++;
    }
}

static bool digits(checker *c)
{
    if (at_end(c) || !is_digit(c->s[c->pos])) return fail_unexpected(c, "");
    while (!at_end(c) && is_digit(c->s[c->pos])) c->pos++;
    return true;
}

static bool number(checker *c)
{
    size_t start = c->pos;
    if (c->s[c->pos] == '-') c->pos++;
    if (!at_end(c) && c->s[c->pos] == '0')
        c->pos++; /* a leading zero stands alone: "01" ends after the 0 */
    else if (!digits(c))
        return false;
    if (!at_end(c) && c->s[c->pos] == '.') {
        c->pos++;
        if (!digits(c)) return false;
    }
    if (!at_end(c) && (c->s[c->pos] == 'e' || c->s[c->pos] == 'E')) {
        c->pos++;
        if (!at_end(c) && (c->s[c->pos] == '+' || c->s[c->pos] == '-')) c->pos++;
        if (!digits(c)) return false;
    }
    if (c->pos - start > VX_JSON_MAX_NUMBER_BYTES) return fail(c, start, "number too long (more than 63 characters)");
    return true;
}

static bool literal(checker *c, const char *word)
{
    for (; *word; word++) {
        if (at_end(c) || c->s[c->pos] != (unsigned char)*word) return fail_unexpected(c, "");
        c->pos++;
    }
    return true;
}

static bool value(checker *c, int depth);

static bool open_nested(checker *c, int depth)
{
    if (depth >= VX_JSON_MAX_DEPTH) return fail(c, c->pos, "nested deeper than 64 levels");
    c->pos++;
    skip_whitespace(c);
    return true;
}

static bool object(checker *c, int depth)
{
    if (!open_nested(c, depth)) return false;
    if (!at_end(c) && c->s[c->pos] == '}') {
        c->pos++;
        return true;
    }
    for (;;) {
        skip_whitespace(c);
        if (at_end(c) || c->s[c->pos] != '"') return fail_unexpected(c, ", expected a key in double quotes");
        if (!string(c)) return false;
        skip_whitespace(c);
        if (at_end(c) || c->s[c->pos] != ':') return fail_unexpected(c, ", expected ':'");
        c->pos++;
        if (!value(c, depth + 1)) return false;
        skip_whitespace(c);
        if (at_end(c) || (c->s[c->pos] != ',' && c->s[c->pos] != '}'))
            return fail_unexpected(c, ", expected ',' or '}'");
        if (c->s[c->pos++] == '}') return true;
    }
}

static bool array(checker *c, int depth)
{
    if (!open_nested(c, depth)) return false;
    if (!at_end(c) && c->s[c->pos] == ']') {
        c->pos++;
        return true;
    }
    for (;;) {
        if (!value(c, depth + 1)) return false;
        skip_whitespace(c);
        if (at_end(c) || (c->s[c->pos] != ',' && c->s[c->pos] != ']'))
            return fail_unexpected(c, ", expected ',' or ']'");
        if (c->s[c->pos++] == ']') return true;
    }
}

static bool value(checker *c, int depth)
{
    skip_whitespace(c);
    if (at_end(c)) return fail_unexpected(c, "");
    unsigned char b = c->s[c->pos];
    switch (b) {
    case '{': return object(c, depth);
    case '[': return array(c, depth);
    case '"': return string(c);
    case 't': return literal(c, "true");
    case 'f': return literal(c, "false");
    case 'n': return literal(c, "null");
    default:
        if (b == '-' || is_digit(b)) return number(c);
        return fail_unexpected(c, "");
    }
}

bool vx_json_check_syntax(const char *text, size_t length, vx_json_syntax_error *out)
{
    checker c = {(const unsigned char *)text, length, 0, out};
    memset(out, 0, sizeof *out);
    /* A UTF-8 byte order mark (some editors write one) is skipped, as cJSON does. */
    if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) c.pos = 3;
    skip_whitespace(&c);
    if (at_end(&c)) {
        out->offset = length;
        out->empty = true;
        snprintf(out->hint, sizeof out->hint, "empty file, expected a JSON object");
        return false;
    }
    if (!value(&c, 0)) return false;
    skip_whitespace(&c);
    if (!at_end(&c)) return fail_unexpected(&c, " after the end of the JSON value");
    return true;
}
