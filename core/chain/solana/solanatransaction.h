#pragma once

#include "chain/codec/decodeerror.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace switchyard::chain::solana {

// The network drops any transaction larger than one IPv6 packet's payload.
inline constexpr qsizetype kMaxTransactionSize = 1232;
inline constexpr qsizetype kSignatureSize = 64;
inline constexpr qsizetype kKeySize = 32;

enum class MessageVersion
{
    Legacy,
    V0
};

struct CompiledInstruction
{
    quint8 programIdIndex = 0;
    QByteArray accountIndexes; // one byte per account, indexes into the message's accounts
    QByteArray data;
};

struct AddressTableLookup
{
    QByteArray tableKey; // 32 bytes
    QByteArray writableIndexes;
    QByteArray readonlyIndexes;
};

// A signed transaction exactly as it travels on the wire (what `sendTransaction` receives,
// base64-decoded). Keys, hashes and signatures are raw bytes; base58 is for display.
struct Transaction
{
    QList<QByteArray> signatures; // 64 bytes each, in account-key order
    MessageVersion version = MessageVersion::Legacy;
    quint8 numRequiredSignatures = 0;
    quint8 numReadonlySignedAccounts = 0;
    quint8 numReadonlyUnsignedAccounts = 0;
    QList<QByteArray> accountKeys; // 32 bytes each; the first is the fee payer
    QByteArray recentBlockhash;    // 32 bytes
    QList<CompiledInstruction> instructions;
    QList<AddressTableLookup> addressTableLookups; // v0 only
    QByteArray message; // the signed bytes: everything after the signatures
    qsizetype messageOffset = 0;
    qsizetype size = 0;

    // The transaction id: the first signature, in base58.
    QString id() const;
    QString feePayer() const;
    QString versionName() const; // "legacy" or "0"
};

// Parses wire bytes strictly: every length checked against what remains, canonical compact-u16
// lengths, no trailing bytes, at most kMaxTransactionSize bytes, and the structural rules a
// validator applies before looking at the signatures (one signature per required signer, the fee
// payer writable, every index inside the account list).
DecodeResult<Transaction> decodeTransaction(const QByteArray& wire);

// Ed25519 over the message bytes, one answer per signature against the signer's key.
QList<bool> verifySignatures(const Transaction& transaction);
bool allSignaturesValid(const Transaction& transaction);

} // namespace switchyard::chain::solana
