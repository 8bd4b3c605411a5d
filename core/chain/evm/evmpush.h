#pragma once

#include "rpc/jsonrpcclient.h"

#include <QJsonValue>
#include <optional>

// EVM WebSocket subscriptions: eth_subscribe "newHeads", a block header pushed for every new
// head. The reader checks the header the way evmrpc checks answers.
namespace switchyard::chain::evm {

inline constexpr char kSubscriptionNotification[] = "eth_subscription";

RpcRequest newHeadsSubscribeRequest();

// A newHeads result: a header with `number` a quantity that fits 63 bits and `hash` 0x and 64
// hex digits.
std::optional<qint64> parseNewHead(const QJsonValue& result, QString* why);

} // namespace switchyard::chain::evm
