#include "config.h"

#include <algorithm>

namespace switchyard {

LagThresholds defaultLagThresholds(ChainFamily family)
{
    switch (family) {
    case ChainFamily::Solana:
        return {8, 50};
    case ChainFamily::Evm:
        return {3, 12};
    }
    Q_UNREACHABLE();
}

const NetworkConfig* Config::network(const QString& name) const
{
    const auto it = std::find_if(networks.cbegin(), networks.cend(),
                                 [&](const NetworkConfig& n) { return n.name == name; });
    return it == networks.cend() ? nullptr : &*it;
}

} // namespace switchyard
