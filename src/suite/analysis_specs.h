#pragma once
// The suite file's analysis tables: [fairness] (the fairness control) and [[workflow]] (device
// workflows composed from operations). Format: suites/matrix.toml.
//
//   [fairness]
//   operations = ["hkdf_sha256", "hmac_sha256"]   # identical code in every image of a group
//   tolerance_percent = 0.5                        # default 0.5
//
//   [[workflow]]
//   name = "receive-new-key"
//   description = "..."
//   [[workflow.variant]]
//   name = "classical"
//   steps = [ { name = "key establishment", operations = ["ecdh_p256_keygen", "ecdh_p256_shared"] },
//             { name = "authentication", operations = ["ecdsa_p256_verify"] } ]
//   wire = ["ecdh_p256_keygen.public_key", "ecdsa_p256_verify.signature"]
//   stored = ["ecdsa_p256_verify.public_key"]
#include <string_view>

#include <toml++/toml.h>

#include "model/suite.h"
#include "util/error.h"

namespace fathom::suite {

util::Result<model::FairnessSpec> parse_fairness(const toml::table& table,
                                                 std::string_view source_name);

// `array` is the [[workflow]] array of tables.
util::Result<std::vector<model::Workflow>> parse_workflows(const toml::array& array,
                                                           std::string_view source_name);

// Every operation a suite's fairness control and workflows name, without duplicates, in order
// of appearance (they must run even when the suite lists `operations`).
std::vector<std::string> operations_named_by_analyses(const model::Suite& suite);

}  // namespace fathom::suite
