#include "gpuga/sudoku/alphabet.hpp"

namespace gpuga {
namespace {

// Alnum64's characters in value order: value v is kAlnum64[v - 1].
constexpr char kAlnum64[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/";

}  // namespace

std::string alphabet_name(Alphabet a, int n) {
  switch (a) {
    case Alphabet::Digits: return "1-9";
    case Alphabet::HexZero: return n <= 16 ? "0-9 then a-f" : "0-9 then a-z";
    case Alphabet::AlnumOne: return "1-9 then A-G";
    case Alphabet::Lower: return "a-y";
    case Alphabet::Upper: return "A-Y";
    case Alphabet::Alnum64:
      if (n <= 36) return "0-9 then A-Z";
      if (n <= 49) return "0-9, A-Z then a-m";
      return "0-9, A-Z, a-z, then + and /";
    case Alphabet::Numbers: break;
  }
  return "numbers";
}

int char_value(char ch, Alphabet a, int n) {
  if (ch == '.') return 0;
  int v = -1;
  switch (a) {
    case Alphabet::Digits:
      if (ch >= '0' && ch <= '9') v = ch - '0';
      break;
    case Alphabet::AlnumOne:
      if (ch >= '1' && ch <= '9') v = ch - '0';
      if (ch >= 'A' && ch <= 'G') v = ch - 'A' + 10;
      break;
    case Alphabet::HexZero:
      if (ch >= '0' && ch <= '9') v = ch - '0' + 1;
      if (ch >= 'a' && ch <= 'z') v = ch - 'a' + 11;
      break;
    case Alphabet::Lower:
      if (ch >= 'a' && ch <= 'y') v = ch - 'a' + 1;
      break;
    case Alphabet::Upper:
      if (ch >= 'A' && ch <= 'Y') v = ch - 'A' + 1;
      break;
    case Alphabet::Alnum64:
      for (int k = 0; kAlnum64[k]; ++k)
        if (kAlnum64[k] == ch) v = k + 1;
      break;
    case Alphabet::Numbers:
      break;
  }
  return v <= n ? v : -1;
}

int token_value(const std::string& token, int n) {
  if (token == ".") return 0;
  if (token.empty() || token.size() > 2) return -1;
  int v = 0;
  for (char ch : token) {
    if (ch < '0' || ch > '9') return -1;
    v = 10 * v + (ch - '0');
  }
  return v <= n ? v : -1;
}

char value_char(int v, Alphabet a) {
  if (v == 0) return '.';
  switch (a) {
    case Alphabet::HexZero: return static_cast<char>(v <= 10 ? '0' + v - 1 : 'a' + v - 11);
    case Alphabet::Lower: return static_cast<char>('a' + v - 1);
    case Alphabet::Upper: return static_cast<char>('A' + v - 1);
    case Alphabet::Alnum64: return kAlnum64[v - 1];
    case Alphabet::Digits:
    case Alphabet::AlnumOne:
    case Alphabet::Numbers: break;
  }
  return static_cast<char>(v <= 9 ? '0' + v : 'A' + v - 10);
}

std::string value_text(int v, Alphabet a, int n) {
  if (a == Alphabet::Numbers && n > 9 && v > 0) return std::to_string(v);
  return std::string(1, value_char(v, a));
}

}  // namespace gpuga
