#pragma once

#include "sim/method.h"

namespace switchyard::sim {

// eth_chainId, eth_blockNumber, eth_syncing, net_version, web3_clientVersion, and the
// transaction methods eth_sendRawTransaction, eth_getTransactionReceipt,
// eth_getTransactionByHash, eth_getTransactionCount (backed by the cluster's EvmLedger) —
// answered from the node's view, quantities as 0x-prefixed hex without leading zeros.
MethodTable evmMethods();

QString hexQuantity(quint64 value);

} // namespace switchyard::sim
