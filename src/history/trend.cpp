#include "history/trend.h"

#include <map>
#include <set>
#include <tuple>

namespace fathom::history {

nlohmann::ordered_json trend_json(const std::string& metric, const std::string& suite,
                                  const std::vector<RunSummary>& runs,
                                  const std::vector<HistoryRow>& rows,
                                  std::optional<int64_t> current) {
  using Json = nlohmann::ordered_json;
  Json out{{"metric", metric}, {"suite", suite}};
  out["current_run"] = current ? Json(*current) : Json(nullptr);
  Json run_list = Json::array();
  std::set<int64_t> kept;
  for (const auto& r : runs) {
    if (r.suite != suite) continue;
    kept.insert(r.id);
    run_list.push_back({{"id", r.id},
                        {"timestamp", r.timestamp_utc},
                        {"name", r.name},
                        {"git_revision", r.git_revision ? Json(*r.git_revision) : Json(nullptr)},
                        {"git_dirty", r.git_dirty}});
  }
  out["runs"] = std::move(run_list);
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, size_t> index;
  Json series = Json::array();
  for (const auto& row : rows) {
    if (!kept.count(row.run_id)) continue;
    const Key key{row.configuration, row.board, row.operation};
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, series.size()).first;
      series.push_back({{"configuration", row.configuration},
                        {"board", row.board},
                        {"operation", row.operation},
                        {"points", Json::array()}});
    }
    series[it->second]["points"].push_back(
        {{"run", row.run_id}, {"value", row.value ? Json(*row.value) : Json(nullptr)}});
  }
  out["series"] = std::move(series);
  return out;
}

}  // namespace fathom::history
