#pragma once
// The characters a puzzle's values are written in, read from its input and used again for its
// output (docs/solving.md, "Puzzle files"). '.' is a blank in every alphabet, and 0 in 1-9 and numbers.
#include <cstdint>
#include <string>

namespace gpuga {

enum class Alphabet : std::uint8_t {
  Digits,    // 1-9 (4x4 and 9x9), 0 or '.' a blank
  HexZero,   // 16x16 and 36x36: 0-9 then a-f (a-z) for 1..16 (1..36), as the shared large
             // instances write 16x16
  AlnumOne,  // 16x16: 1-9 then A-G for 1..16
  Lower,     // 25x25: a-y for 1..25
  Upper,     // 25x25: A-Y for 1..25
  Numbers,   // whitespace-separated numbers 1..n, 0 or '.' a blank
  Alnum64,   // 36x36, 49x49, 64x64: 0-9, A-Z, a-z, then + and / for 1..64 (36x36: 0-9 then A-Z)
};

// "0-9 then a-f" and so on, for messages: the characters of the values 1..n.
std::string alphabet_name(Alphabet a, int n);

// The value of character ch under alphabet a for side n (0 a blank), or -1 when a does not
// have it (Numbers: none; a whole token is read by token_value).
int char_value(char ch, Alphabet a, int n);

// The value of a whitespace-separated token (0 or '.' a blank, else 1..n), or -1.
int token_value(const std::string& token, int n);

// The character of value v (0: '.'); Digits and Numbers write 1-9 then A-G as AlnumOne does.
char value_char(int v, Alphabet a);

// One value as written in a line or a pretty grid: a character, or a number for Numbers with
// n > 9 (whose lines separate values by spaces).
std::string value_text(int v, Alphabet a, int n);

}  // namespace gpuga
