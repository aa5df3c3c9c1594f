# cmake -DINPUT=FILE -DOUTPUT=FILE.c -DNAME=symbol -P embed_file.cmake
# Writes a C file defining `const unsigned char NAME[]` (the file's bytes and
# a terminating 0) and `const size_t NAME_size` (the bytes without it), so a
# program carries a text file of the repository (voltex-sim --schema). An
# array of bytes, not a string literal: C compilers need not take literals
# longer than 4095 characters.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n    " bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "/* Generated from ${INPUT} by cmake/embed_file.cmake: do not edit. */\n"
  "#include <stddef.h>\n\n"
  "extern const unsigned char ${NAME}[];\n"
  "extern const size_t ${NAME}_size;\n\n"
  "const unsigned char ${NAME}[] = {\n    ${bytes}0x00};\n"
  "const size_t ${NAME}_size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
