// SPDX-License-Identifier: Apache-2.0
// Safe queries on yaml-cpp nodes. yaml-cpp throws on the type query of a missing key's node (an "invalid node");
// these answer false or "" instead, so a hand-edited file with a key missing never aborts a whole parse.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace faultline::core::yaml {

inline bool isMap(const YAML::Node& n)
{
    return n.IsDefined() && n.IsMap();
}
inline bool isScalar(const YAML::Node& n)
{
    return n.IsDefined() && n.IsScalar();
}
inline bool isSequence(const YAML::Node& n)
{
    return n.IsDefined() && n.IsSequence();
}

/// `map[key]` when `map` is a map, else an undefined node.
inline YAML::Node child(const YAML::Node& map, const char* key)
{
    return isMap(map) ? map[key] : YAML::Node();
}

/// The scalar at `map[key]`, or "" when `map` is not a map or the value is missing or not a scalar.
inline std::string scalarAt(const YAML::Node& map, const char* key)
{
    const YAML::Node v = child(map, key);
    return isScalar(v) ? v.Scalar() : std::string();
}

} // namespace faultline::core::yaml
