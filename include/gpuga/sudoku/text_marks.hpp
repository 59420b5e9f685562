#pragma once
// The marks a text file may begin with, for every reader of one (puzzle files, CSVs, --config):
// a UTF-8 byte-order mark (a spreadsheet's "CSV UTF-8"), read past; UTF-16's, refused by name.
#include <string_view>

namespace gpuga {

inline constexpr std::string_view kUtf8Mark = "\xEF\xBB\xBF";

inline bool starts_with_utf8_mark(std::string_view text) { return text.substr(0, 3) == kUtf8Mark; }
inline bool starts_with_utf16_mark(std::string_view text) {
  return text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF";
}

}  // namespace gpuga
