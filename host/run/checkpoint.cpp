#include "gpuga/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "gpuga/errors.hpp"

namespace gpuga {
namespace {

const std::string kMagic = "gpuga checkpoint ";

std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : bytes) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

// The body: fixed-size fields little-endian as this machine lays them out (x86-64 and aarch64
// both), strings and byte blocks after their length.
class Writer {
 public:
  template <class T>
  void pod(const T& v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void bytes(const void* p, std::uint64_t n) {
    pod(n);
    out_.append(static_cast<const char*>(p), n);
  }
  void text(const std::string& s) { bytes(s.data(), s.size()); }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const std::string& in, const std::string& path) : in_(in), path_(path) {}
  template <class T>
  T pod() {
    T v;
    take(&v, sizeof v);
    return v;
  }
  std::string text() {
    const auto n = pod<std::uint64_t>();
    need(n);
    std::string s = in_.substr(at_, n);
    at_ += n;
    return s;
  }
  std::vector<std::uint8_t> block() {
    const std::string s = text();
    return {s.begin(), s.end()};
  }
  bool done() const { return at_ == in_.size(); }

 private:
  void need(std::uint64_t n) const {
    GPUGA_INPUT_CHECK(n <= in_.size() - at_, path_ + ": damaged checkpoint (a field runs past "
                                                     "its end); expected a file gpuga wrote");
  }
  void take(void* to, std::uint64_t n) {
    need(n);
    std::memcpy(to, in_.data() + at_, n);
    at_ += n;
  }
  const std::string& in_;
  const std::string& path_;
  std::uint64_t at_ = 0;
};

std::string body_of(const Checkpoint& c) {
  Writer w;
  w.text(c.version);
  w.text(c.config);
  w.text(c.puzzle);
  w.pod(c.puzzle_index);
  const RunState& s = c.run;
  w.pod(s.elapsed);
  w.pod(s.init_seconds);
  w.pod(s.best.box);
  w.bytes(s.best.cell.data(), s.best.cell.size());
  w.pod(s.best_fitness);
  w.pod(s.island);
  w.pod(s.generation);
  w.pod(s.epoch);
  w.bytes(s.engine.data(), s.engine.size());
  return w.str();
}

void write_all(int fd, const std::string& data, const std::string& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw RuntimeFailure(path + ": cannot write the checkpoint: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

// A configuration line's settings by name: its "key=value" words (a value alone is its own key).
std::map<std::string, std::string> settings_of(const std::string& line) {
  std::map<std::string, std::string> out;
  std::istringstream in(line);
  for (std::string word; in >> word;) {
    const auto eq = word.find('=');
    out[word.substr(0, eq)] = eq == std::string::npos ? "" : word.substr(eq + 1);
  }
  return out;
}

// What differs between two configuration lines, by setting: "seed 5 there, 6 here; pop ...".
std::string settings_difference(const std::string& there, const std::string& here) {
  const auto a = settings_of(there), b = settings_of(here);
  std::string out;
  const auto add = [&out](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
  for (const auto& [key, value] : b) {
    const auto it = a.find(key);
    if (it == a.end()) add(key + " " + value + " here, not set there");
    else if (it->second != value) add(key + " " + it->second + " there, " + value + " here");
  }
  for (const auto& [key, value] : a)
    if (!b.count(key)) add(key + " " + value + " there, not set here");
  return out.empty() ? "the settings' order" : out;
}

// How two puzzle lines differ: "3 cells (the first: cell 12)", or their lengths.
std::string cells_difference(const std::string& there, const std::string& here) {
  if (there.size() != here.size()) return "size (" + std::to_string(there.size()) + " characters there, " +
                                          std::to_string(here.size()) + " here)";
  std::size_t count = 0, first = 0;
  for (std::size_t k = 0; k < here.size(); ++k)
    if (there[k] != here[k] && count++ == 0) first = k + 1;
  return std::to_string(count) + " character(s), the first at " + std::to_string(first);
}

}  // namespace

std::string checkpoint_file_bytes(const std::string& body) {
  std::string file = kMagic + std::to_string(kCheckpointFormat) + "\n";
  const std::uint64_t length = body.size(), sum = fnv1a(body);
  file.append(reinterpret_cast<const char*>(&length), sizeof length);
  file.append(reinterpret_cast<const char*>(&sum), sizeof sum);
  return file + body;
}

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  const std::string file = checkpoint_file_bytes(body_of(c));
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw RuntimeFailure(tmp + ": cannot create the checkpoint: " + std::strerror(errno));
  try {
    write_all(fd, file, tmp);
    if (::fsync(fd) != 0) throw RuntimeFailure(tmp + ": cannot flush the checkpoint: " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());  // no half-written file left beside the last good one
    throw;
  }
  ::close(fd);
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw RuntimeFailure(path + ": cannot replace the checkpoint: " + std::strerror(errno));
}

Checkpoint read_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  GPUGA_INPUT_CHECK(in.good(), path + ": cannot read the checkpoint");
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t eol = file.find('\n');
  GPUGA_INPUT_CHECK(file.rfind(kMagic, 0) == 0 && eol != std::string::npos,
                    path + ": not a gpuga checkpoint; expected a first line '" + kMagic +
                        std::to_string(kCheckpointFormat) + "'");
  const std::string format = file.substr(kMagic.size(), eol - kMagic.size());
  GPUGA_INPUT_CHECK(format == std::to_string(kCheckpointFormat),
                    path + ": checkpoint format " + format + "; this gpuga reads format " +
                        std::to_string(kCheckpointFormat));
  const std::size_t head = eol + 1 + 2 * sizeof(std::uint64_t);
  GPUGA_INPUT_CHECK(file.size() >= head, path + ": truncated checkpoint (" +
                                             std::to_string(file.size()) + " bytes, its header cut)");
  std::uint64_t length = 0, sum = 0;
  std::memcpy(&length, file.data() + eol + 1, sizeof length);
  std::memcpy(&sum, file.data() + eol + 1 + sizeof length, sizeof sum);
  GPUGA_INPUT_CHECK(file.size() - head == length,
                    path + ": truncated checkpoint (" + std::to_string(file.size() - head) +
                        " bytes of body; its header says " + std::to_string(length) + ")");
  const std::string body = file.substr(head);
  GPUGA_INPUT_CHECK(fnv1a(body) == sum, path + ": damaged checkpoint (its checksum does not "
                                               "match its contents)");
  Reader r(body, path);
  Checkpoint c;
  c.version = r.text();
  c.config = r.text();
  c.puzzle = r.text();
  c.puzzle_index = r.pod<std::uint32_t>();
  RunState& s = c.run;
  s.elapsed = r.pod<double>();
  s.init_seconds = r.pod<double>();
  const int box = r.pod<int>();
  const auto cells = r.block();
  // The box checked before it sizes anything: a file whose checksum holds may still be made up.
  GPUGA_INPUT_CHECK(box >= 2 && box <= kMaxBox && cells.size() == std::size_t(box * box * box * box) &&
                        std::all_of(cells.begin(), cells.end(), [&](auto v) { return v <= box * box; }),
                    path + ": damaged checkpoint (its best grid); expected a file gpuga wrote");
  s.best = Grid(box);
  s.best.cell = cells;
  s.best_fitness = r.pod<Fitness>();
  s.island = r.pod<std::uint32_t>();
  s.generation = r.pod<std::uint32_t>();
  s.epoch = r.pod<std::uint32_t>();
  s.engine = r.block();
  GPUGA_INPUT_CHECK(r.done(), path + ": damaged checkpoint (bytes after its end)");
  return c;
}

void check_checkpoint_is_for(const Checkpoint& c, const Checkpoint& expected, const std::string& path) {
  GPUGA_INPUT_CHECK(c.version == expected.version,
                    path + ": a checkpoint of gpuga " + c.version + "; this is gpuga " +
                        expected.version + ", which does not continue another version's runs");
  GPUGA_INPUT_CHECK(c.config == expected.config,
                    path + ": a checkpoint of another configuration: " +
                        settings_difference(c.config, expected.config) +
                        "; expected the command that wrote it (or delete it to start afresh)");
  GPUGA_INPUT_CHECK(c.puzzle_index == expected.puzzle_index && c.puzzle == expected.puzzle,
                    path + ": a checkpoint of another puzzle: " +
                        (c.puzzle_index != expected.puzzle_index
                             ? "puzzle " + std::to_string(c.puzzle_index) + " of the files there, puzzle " +
                                   std::to_string(expected.puzzle_index) + " here"
                             : "puzzle " + std::to_string(c.puzzle_index) + " there differs from the files' " +
                                   "here in " + cells_difference(c.puzzle, expected.puzzle)) +
                        "; expected the files that run began on");
}

}  // namespace gpuga
