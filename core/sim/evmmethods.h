#pragma once

#include "sim/method.h"

namespace switchyard::sim {

// eth_chainId, eth_blockNumber, eth_syncing, net_version, web3_clientVersion — answered from
// the node's view, quantities as 0x-prefixed hex without leading zeros.
MethodTable evmMethods();

QString hexQuantity(quint64 value);

} // namespace switchyard::sim
