#pragma once

#include "chain/sendanswer.h"
#include "chain/statusobservation.h"
#include "rpc/jsonrpcclient.h"

#include <QList>
#include <QStringList>
#include <optional>

// How Switchyard asks a Solana node each question, and how it reads each answer. Every reader
// checks the answer before any of it is believed: a result that is not a valid answer to the
// question asked is nullopt with `why` naming what was wrong, and the caller counts it as a
// malformed answer of that node (rpc/rpcreply.h invalidAnswer), never as "found" or "failed".
namespace switchyard::chain::solana {

// A status slot may run this far past the context slot of the same answer: both come from one
// node, but not always from the same bank.
constexpr qint64 kSlotMargin = 150;

RpcRequest healthRequest();
RpcRequest genesisHashRequest();
RpcRequest slotRequest(const QString& commitment);
RpcRequest blockHeightRequest(const QString& commitment);
// getSignatureStatuses for `ids`, up to 256; with searchTransactionHistory for ids that may
// have left the node's status cache.
RpcRequest signatureStatusesRequest(const QStringList& ids, bool searchHistory);
// sendTransaction of the signed bytes as they are, preflight at `commitment`, never retried by
// the node (Switchyard decides every send); exactly one POST.
RpcRequest sendTransactionRequest(const QByteArray& wire, const QString& commitment,
                                  bool skipPreflight);

// The genesis hash: base58 of 32 bytes.
std::optional<QString> parseGenesisHash(const QJsonValue& result, QString* why);
// getSlot and getBlockHeight: a whole number from 0 to 2^53.
std::optional<qint64> parseSlot(const QJsonValue& result, QString* why);
std::optional<qint64> parseBlockHeight(const QJsonValue& result, QString* why);

struct SignatureStatuses
{
    qint64 contextSlot = 0;            // the node's view the statuses speak for
    QList<StatusObservation> statuses; // one per id asked, in the order asked
};

// A getSignatureStatuses result for `asked` ids: {context: {slot}, value: [one entry per id]},
// each entry null (not found) or {slot, confirmations, err, confirmationStatus} with a slot not
// past the context slot (by more than kSlotMargin), confirmations null or a count, and a known
// confirmationStatus (without one, as old nodes answer: null confirmations means rooted).
// What a sendTransaction answer says: accepted when it names `signature`; "already processed"
// (in words or as preflight's AlreadyProcessed) means the network has these bytes; any other
// error refused them before accepting.
SendClassification classifySendAnswer(const RpcReply& reply, const QString& signature);

std::optional<SignatureStatuses> parseSignatureStatuses(const QJsonValue& result, qsizetype asked,
                                                        QString* why);

} // namespace switchyard::chain::solana
