// Writes a Chrome trace-event file (the JSON object format Perfetto and chrome://tracing open:
// {"traceEvents": [...], "otherData": {...}}) as it goes: events are appended in chunks and never
// held for the whole run. A name ending in ".gz" is written gzip-compressed (zlib).
//
// Thread safety: append() may be called from several host threads (each SM's observer keeps its
// own chunk and hands it over whole); the file is written under a lock.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace simtsync::trace {

class TraceWriter {
 public:
  // Opens `path` for writing (exit 2, naming the path, when it cannot be).
  explicit TraceWriter(const std::string& path);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // `events`: zero or more complete events, each preceded by ",\n" (see event_prefix()).
  void append(std::string_view events, std::uint64_t count);
  // Makes everything appended so far readable by another process (a gzip stream is flushed to
  // a decodable point); called after each launch.
  void flush();
  // Ends the event list, writes otherData (a JSON object's members, without braces) and closes.
  // Further calls do nothing. Write errors throw (exit 2, naming the path).
  void close(std::string_view other_data);

  std::uint64_t events() const { return events_; }
  std::uint64_t bytes() const { return bytes_; }  // uncompressed
  const std::string& path() const { return path_; }
  static constexpr std::string_view event_prefix() { return ",\n"; }

 private:
  void write_raw(std::string_view s);

  std::string path_;
  std::mutex mu_;
  struct Sink;
  std::unique_ptr<Sink> sink_;
  std::uint64_t events_ = 0, bytes_ = 0;
  bool closed_ = false;
};

}  // namespace simtsync::trace
