#pragma once
// A value to or from a run's snapshot bytes (Engine::snapshot), returning the position after it:
// the island engine's records and the growing engine's blocks are laid out with these.
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpuga {

template <class T>
std::uint8_t* write_value(std::uint8_t* at, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(at, &v, sizeof v);
  return at + sizeof v;
}

template <class T>
const std::uint8_t* read_value(const std::uint8_t* at, T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(&v, at, sizeof v);
  return at + sizeof v;
}

}  // namespace gpuga
