// Checkpoint files (gpuga solve --checkpoint, batch --checkpoint-every). Most inputs are given a
// valid header and checksum around the fuzzer's bytes, so that the body's reader is reached;
// the rest are read as they come, header and all. A read either refuses, naming the file, or
// gives a checkpoint that, written again, is the same bytes.
#include "fuzz_support.hpp"
#include "gpuga/checkpoint.hpp"
#include "gpuga/errors.hpp"

using namespace gpuga;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string bytes = data[0] % 8 ? checkpoint_file_bytes(rest) : rest;
  const std::string path = fuzz::write_file(fuzz::scratch_file("checkpoint"), bytes);
  Checkpoint c;
  try {
    c = read_checkpoint(path);
  } catch (const InputError& e) {
    if (std::string(e.what()).rfind(path + ": ", 0) != 0)
      fuzz::fault(std::string("a refusal that does not name the file: ") + e.what());
    return 0;
  }
  const std::string again = fuzz::scratch_file("checkpoint-again");
  write_checkpoint(again, c);
  if (file_bytes(again) != bytes) fuzz::fault("a checkpoint read and written again differs");
  return 0;
}
