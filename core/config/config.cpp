#include "config.h"

#include <algorithm>

namespace switchyard {

const NetworkConfig* Config::network(const QString& name) const
{
    const auto it = std::find_if(networks.cbegin(), networks.cend(),
                                 [&](const NetworkConfig& n) { return n.name == name; });
    return it == networks.cend() ? nullptr : &*it;
}

} // namespace switchyard
