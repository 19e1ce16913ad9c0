#include "report/writer.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include "report/benchmark_tables.h"
#include "report/csv_writer.h"
#include "report/gbench_writer.h"
#include "report/github_benchmark_writer.h"
#include "report/json_writer.h"
#include "report/markdown_writer.h"
#include "report/table_writer.h"

namespace fathom::report {

const std::vector<std::string>& writer_formats() {
  static const std::vector<std::string> formats = {
      "table", "json", "csv", "markdown", "gbench", "github-benchmark", "pqm4-md"};
  return formats;
}

util::Result<std::unique_ptr<Writer>> make_writer(std::string_view format,
                                                  TableOptions table) {
  if (format == "table") return std::make_unique<TableWriter>(table);
  if (format == "json") return std::make_unique<JsonWriter>();
  if (format == "csv") return std::make_unique<CsvWriter>();
  if (format == "markdown") return std::make_unique<MarkdownWriter>();
  if (format == "gbench") return std::make_unique<GbenchWriter>();
  if (format == "github-benchmark") return std::make_unique<GithubBenchmarkWriter>();
  if (format == "pqm4-md") return std::make_unique<BenchmarkTablesWriter>();
  return util::fail(fmt::format("unknown report format '{}'; use one of: {}", format,
                                fmt::join(writer_formats(), ", ")));
}

}  // namespace fathom::report
