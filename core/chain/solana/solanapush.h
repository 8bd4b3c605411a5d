#pragma once

#include "rpc/jsonrpcclient.h"

#include <QJsonValue>
#include <optional>

// Solana's WebSocket subscriptions: a slot pushed on every slot the node processes, and one
// notification when a signature reaches a commitment. Readers check the notification's result
// the way solanarpc checks answers: nullopt with `why` naming what was wrong.
namespace switchyard::chain::solana {

inline constexpr char kSlotNotification[] = "slotNotification";
inline constexpr char kSignatureNotification[] = "signatureNotification";

RpcRequest slotSubscribeRequest();
RpcRequest signatureSubscribeRequest(const QString& signature, const QString& commitment);
RpcRequest signatureUnsubscribeRequest(qint64 subscription);

// A slotNotification result: {parent, root, slot}, each a whole number from 0 to 2^53, parent
// and root not past the slot. The slot is at the processed level.
std::optional<qint64> parseSlotNotification(const QJsonValue& result, QString* why);

struct SignatureNotice
{
    qint64 contextSlot = 0;
    bool receivedOnly = false; // "receivedSignature": seen, not yet at the commitment
};
// A signatureNotification result: {context: {slot}, value: {err} or "receivedSignature"}.
std::optional<SignatureNotice> parseSignatureNotification(const QJsonValue& result, QString* why);

} // namespace switchyard::chain::solana
