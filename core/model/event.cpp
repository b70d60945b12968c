// SPDX-License-Identifier: Apache-2.0
#include "core/model/event.h"

namespace faultline::core {

const char* roleName(Role r)
{
    switch (r) {
    case Role::Root:
        return "root";
    case Role::Cascade:
        return "cascade";
    case Role::Teardown:
        return "teardown";
    case Role::Companion:
        return "companion";
    case Role::Precursor:
        return "precursor";
    case Role::Context:
        return "context";
    }
    return "context";
}

bool roleFromName(std::string_view name, Role& out)
{
    for (auto r : { Role::Root, Role::Cascade, Role::Teardown, Role::Companion, Role::Precursor, Role::Context })
        if (name == roleName(r)) {
            out = r;
            return true;
        }
    return false;
}

const std::string* Event::field(std::string_view key) const
{
    for (const auto& [k, v] : fields)
        if (k == key)
            return &v;
    return nullptr;
}

} // namespace faultline::core
