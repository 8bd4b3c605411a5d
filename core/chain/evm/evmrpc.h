#pragma once

#include "chain/sendanswer.h"
#include "chain/statusobservation.h"
#include "rpc/jsonrpcclient.h"

#include <optional>

// How Switchyard asks an EVM node each question, and how it reads each answer. Every reader
// checks the answer before any of it is believed: a result that is not a valid answer to the
// question asked is nullopt with `why` naming what was wrong, and the caller counts it as a
// malformed answer of that node (rpc/rpcreply.h invalidAnswer), never as "found" or "failed".
namespace switchyard::chain::evm {

// A block in an answer may run this far past the head the same node gave in the same batch: a
// load balancer may put the two questions to two backends a block apart.
constexpr qint64 kBlockMargin = 4;

RpcRequest chainIdRequest();
RpcRequest blockNumberRequest();
RpcRequest syncingRequest();
// The sender's mined nonce: eth_getTransactionCount at "latest".
RpcRequest minedNonceRequest(const QString& sender);
RpcRequest receiptRequest(const QString& hash);
RpcRequest transactionByHashRequest(const QString& hash);
// eth_sendRawTransaction of the signed bytes as they are; exactly one POST.
RpcRequest sendRawTransactionRequest(const QByteArray& wire);

// What an eth_sendRawTransaction answer says: accepted when it names `hash` (any case);
// "already known" and its variants mean the network has these bytes; "nonce too low" that the
// nonce is used (by whom, a lookup says); any other error refused them before accepting.
SendClassification classifySendAnswer(const RpcReply& reply, const QString& hash);

std::optional<quint64> parseChainId(const QJsonValue& result, QString* why);
std::optional<qint64> parseBlockNumber(const QJsonValue& result, QString* why);
std::optional<quint64> parseMinedNonce(const QJsonValue& result, QString* why);

struct SyncProgress
{
    bool syncing = false;
    std::optional<qint64> currentBlock;
    std::optional<qint64> highestBlock;
};
// eth_syncing: false, or an object (its block numbers read when they are quantities).
std::optional<SyncProgress> parseSyncing(const QJsonValue& result, QString* why);

// An eth_getTransactionReceipt result for `askedHash` from a node whose head (eth_blockNumber
// in the same batch) is `head`: null (not mined here) or a receipt of that very hash, with a
// blockNumber not past the head (by more than kBlockMargin) and a status of 0x1 or 0x0. Finalized
// once it is `finalityDepth` blocks deep (head - block + 1), Confirmed before; Confirmed too when
// the head is unknown.
std::optional<StatusObservation> parseReceipt(const QJsonValue& result, const QString& askedHash,
                                              std::optional<qint64> head, qint64 finalityDepth,
                                              QString* why);

struct TransactionByHash
{
    bool found = false;
    std::optional<qint64> block; // none: in the node's pool, not mined
    QByteArray sender;           // 20 bytes
    quint64 nonce = 0;
};
// An eth_getTransactionByHash result for `askedHash`: null, or that very transaction with a
// 20-byte `from`, a `nonce`, and a blockNumber null (pending) or not past `head`.
std::optional<TransactionByHash> parseTransactionByHash(const QJsonValue& result,
                                                        const QString& askedHash,
                                                        std::optional<qint64> head, QString* why);

} // namespace switchyard::chain::evm
