#include "trace/trace_writer.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "common/error.h"
#include "trace/tracer.h"

namespace simtsync::trace {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "." + std::to_string(::testing::UnitTest::GetInstance()->random_seed())))
      .string();
}

std::string read_all(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");  // plain files read as they are
  std::string s;
  char buf[4096];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) s.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return s;
}

TEST(TraceWriter, WritesATraceEventObjectWithEveryAppendedEvent) {
  const std::string path = temp_path("trace_writer.json");
  {
    TraceWriter w(path);
    std::string chunk;
    for (int i = 0; i < 3; ++i) {
      chunk += TraceWriter::event_prefix();
      chunk += "{\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(i) +
               ",\"ts\":" + std::to_string(10 * i) + ",\"dur\":5,\"name\":\"issue\"}";
    }
    w.append(chunk, 3);
    w.flush();
    w.close("\"run\":\"test\"");
    EXPECT_EQ(w.events(), 4u);  // the GPU's process name comes first
  }
  const auto j = nlohmann::json::parse(read_all(path));
  ASSERT_TRUE(j["traceEvents"].is_array());
  EXPECT_EQ(j["traceEvents"].size(), 4u);
  EXPECT_EQ(j["traceEvents"][3]["ts"], 20);
  EXPECT_EQ(j["otherData"]["run"], "test");
  std::remove(path.c_str());
}

TEST(TraceWriter, CompressesWhenTheNameEndsInGz) {
  const std::string path = temp_path("trace_writer") + ".json.gz";
  {
    TraceWriter w(path);
    std::string many;
    for (int i = 0; i < 5000; ++i)
      many += std::string(TraceWriter::event_prefix()) +
              "{\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":" + std::to_string(i) +
              ",\"name\":\"n\",\"args\":{\"v\":1}}";
    w.append(many, 5000);
    w.flush();  // decodable here: another reader could follow along
    w.close("");
  }
  std::ifstream raw(path, std::ios::binary);
  char magic[2] = {};
  raw.read(magic, 2);
  EXPECT_EQ(static_cast<unsigned char>(magic[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(magic[1]), 0x8b);
  const auto j = nlohmann::json::parse(read_all(path));
  EXPECT_EQ(j["traceEvents"].size(), 5001u);
  EXPECT_LT(std::filesystem::file_size(path), 5000u * 50 / 10);
  std::remove(path.c_str());
}

TEST(TraceWriter, AnUnwritablePathIsAUsageError) {
  try {
    TraceWriter w("/nonexistent-dir/trace.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/trace.json"), std::string::npos);
  }
}

TEST(TraceWindow, ParsesStartEndWithEitherSideOpen) {
  TraceOptions o;
  parse_window("100:2000", o);
  EXPECT_EQ(o.window_start, 100u);
  EXPECT_EQ(o.window_end, 2000u);
  parse_window(":50", o);
  EXPECT_EQ(o.window_start, 0u);
  EXPECT_EQ(o.window_end, 50u);
  parse_window("7:", o);
  EXPECT_EQ(o.window_start, 7u);
  EXPECT_EQ(o.window_end, kNever);
  EXPECT_THROW(parse_window("5", o), Error);
  EXPECT_THROW(parse_window("5:5", o), Error);
  EXPECT_THROW(parse_window("a:9", o), Error);
  EXPECT_THROW(parse_window("-1:9", o), Error);
}

}  // namespace
}  // namespace simtsync::trace
