#include "solanatransaction.h"

#include "chain/codec/base58.h"
#include "chain/codec/bytereader.h"

#include <sodium.h>

namespace switchyard::chain::solana {

namespace {

constexpr quint8 kVersionPrefix = 0x80;
// Account indexes are one byte: no message can address more accounts than that.
constexpr qsizetype kMaxAccounts = 256;

DecodeError structural(const QString& message, qsizetype offset)
{
    return {message + QStringLiteral(" at offset %1").arg(offset), offset};
}

bool sodiumReady()
{
    static const bool ready = sodium_init() >= 0;
    return ready;
}

} // namespace

QString Transaction::id() const
{
    return signatures.isEmpty() ? QString() : base58Encode(signatures.first());
}

QString Transaction::feePayer() const
{
    return accountKeys.isEmpty() ? QString() : base58Encode(accountKeys.first());
}

QString Transaction::versionName() const
{
    return version == MessageVersion::Legacy ? QStringLiteral("legacy") : QStringLiteral("0");
}

DecodeResult<Transaction> decodeTransaction(const QByteArray& wire)
{
    if (wire.size() > kMaxTransactionSize) {
        return DecodeError{QStringLiteral("transaction is %1 bytes, over the network's %2-byte "
                                          "packet limit")
                               .arg(wire.size())
                               .arg(kMaxTransactionSize),
                           kMaxTransactionSize};
    }
    if (wire.isEmpty())
        return DecodeError{QStringLiteral("empty transaction"), 0};

    Transaction tx;
    tx.size = wire.size();
    ByteReader in(asSpan(wire));

    const auto signatureCount = in.compactU16("signature count");
    if (!signatureCount)
        return signatureCount.error();
    if (*signatureCount == 0) {
        return DecodeError{QStringLiteral("no signatures at offset 0: a transaction carries at "
                                          "least the fee payer's"),
                           0};
    }
    tx.signatures.reserve(*signatureCount);
    for (int i = 0; i < *signatureCount; ++i) {
        const auto signature = in.take(kSignatureSize, "signature", i + 1);
        if (!signature)
            return signature.error();
        tx.signatures.append(toByteArray(*signature));
    }

    tx.messageOffset = in.offset();
    tx.message = wire.mid(tx.messageOffset);

    const qsizetype headerOffset = in.offset();
    auto first = in.byte("message header");
    if (!first)
        return first.error();
    if (*first & kVersionPrefix) {
        const int version = *first & 0x7f;
        if (version != 0) {
            return DecodeError{QStringLiteral("unsupported message version %1 at offset %2")
                                   .arg(version)
                                   .arg(headerOffset),
                               headerOffset};
        }
        tx.version = MessageVersion::V0;
        first = in.byte("message header");
        if (!first)
            return first.error();
    }
    const qsizetype requiredOffset = in.offset() - 1;
    tx.numRequiredSignatures = *first;
    const auto readonlySigned = in.byte("message header");
    if (!readonlySigned)
        return readonlySigned.error();
    tx.numReadonlySignedAccounts = *readonlySigned;
    const auto readonlyUnsigned = in.byte("message header");
    if (!readonlyUnsigned)
        return readonlyUnsigned.error();
    tx.numReadonlyUnsignedAccounts = *readonlyUnsigned;

    const qsizetype keyCountOffset = in.offset();
    const auto keyCount = in.compactU16("account key count");
    if (!keyCount)
        return keyCount.error();
    tx.accountKeys.reserve(*keyCount);
    for (int i = 0; i < *keyCount; ++i) {
        const auto key = in.take(kKeySize, "account key", i + 1);
        if (!key)
            return key.error();
        tx.accountKeys.append(toByteArray(*key));
    }

    const auto blockhash = in.take(kKeySize, "recent blockhash");
    if (!blockhash)
        return blockhash.error();
    tx.recentBlockhash = toByteArray(*blockhash);

    const auto instructionCount = in.compactU16("instruction count");
    if (!instructionCount)
        return instructionCount.error();
    QList<qsizetype> instructionOffsets;
    tx.instructions.reserve(*instructionCount);
    for (int i = 0; i < *instructionCount; ++i) {
        instructionOffsets.append(in.offset());
        CompiledInstruction instruction;
        const auto program = in.byte("program id index of instruction", i + 1);
        if (!program)
            return program.error();
        instruction.programIdIndex = *program;
        const auto accountCount = in.compactU16("account list of instruction", i + 1);
        if (!accountCount)
            return accountCount.error();
        const auto accounts = in.take(*accountCount, "account list of instruction", i + 1);
        if (!accounts)
            return accounts.error();
        instruction.accountIndexes = toByteArray(*accounts);
        const auto dataSize = in.compactU16("data of instruction", i + 1);
        if (!dataSize)
            return dataSize.error();
        const auto data = in.take(*dataSize, "data of instruction", i + 1);
        if (!data)
            return data.error();
        instruction.data = toByteArray(*data);
        tx.instructions.append(instruction);
    }

    qsizetype lookupAccounts = 0;
    if (tx.version == MessageVersion::V0) {
        const auto lookupCount = in.compactU16("address table lookup count");
        if (!lookupCount)
            return lookupCount.error();
        for (int i = 0; i < *lookupCount; ++i) {
            const qsizetype lookupOffset = in.offset();
            AddressTableLookup lookup;
            const auto table = in.take(kKeySize, "address table key of lookup", i + 1);
            if (!table)
                return table.error();
            lookup.tableKey = toByteArray(*table);
            const auto writableCount = in.compactU16("writable indexes of lookup", i + 1);
            if (!writableCount)
                return writableCount.error();
            const auto writable = in.take(*writableCount, "writable indexes of lookup", i + 1);
            if (!writable)
                return writable.error();
            lookup.writableIndexes = toByteArray(*writable);
            const auto readonlyCount = in.compactU16("readonly indexes of lookup", i + 1);
            if (!readonlyCount)
                return readonlyCount.error();
            const auto readonly = in.take(*readonlyCount, "readonly indexes of lookup", i + 1);
            if (!readonly)
                return readonly.error();
            lookup.readonlyIndexes = toByteArray(*readonly);
            if (lookup.writableIndexes.isEmpty() && lookup.readonlyIndexes.isEmpty()) {
                return structural(
                    QStringLiteral("address table lookup %1 loads no account").arg(i + 1),
                    lookupOffset);
            }
            lookupAccounts += lookup.writableIndexes.size() + lookup.readonlyIndexes.size();
            tx.addressTableLookups.append(lookup);
        }
    }

    if (!in.atEnd()) {
        return DecodeError{QStringLiteral("%1 trailing byte(s) at offset %2 after the message")
                               .arg(in.remaining())
                               .arg(in.offset()),
                           in.offset()};
    }

    // The rules a validator checks before it looks at any signature.
    if (tx.numRequiredSignatures == 0) {
        return structural(QStringLiteral("message requires no signature: the fee payer must sign"),
                          requiredOffset);
    }
    if (tx.signatures.size() != tx.numRequiredSignatures) {
        return structural(QStringLiteral("transaction carries %1 signature(s) but its message "
                                         "requires %2")
                              .arg(tx.signatures.size())
                              .arg(tx.numRequiredSignatures),
                          requiredOffset);
    }
    if (tx.numReadonlySignedAccounts >= tx.numRequiredSignatures) {
        return structural(QStringLiteral("%1 of %2 signer(s) are read-only: the fee payer must be "
                                         "writable")
                              .arg(tx.numReadonlySignedAccounts)
                              .arg(tx.numRequiredSignatures),
                          requiredOffset + 1);
    }
    if (tx.numRequiredSignatures + tx.numReadonlyUnsignedAccounts > tx.accountKeys.size()) {
        return structural(QStringLiteral("message header names %1 signer(s) and %2 read-only "
                                         "account(s) but lists %3 account key(s)")
                              .arg(tx.numRequiredSignatures)
                              .arg(tx.numReadonlyUnsignedAccounts)
                              .arg(tx.accountKeys.size()),
                          keyCountOffset);
    }
    const qsizetype totalAccounts = tx.accountKeys.size() + lookupAccounts;
    if (totalAccounts > kMaxAccounts) {
        return structural(QStringLiteral("message addresses %1 accounts, over the limit of %2")
                              .arg(totalAccounts)
                              .arg(kMaxAccounts),
                          keyCountOffset);
    }
    for (qsizetype i = 0; i < tx.instructions.size(); ++i) {
        const CompiledInstruction& instruction = tx.instructions[i];
        // The fee payer cannot be a program, and lookups cannot supply program ids.
        if (instruction.programIdIndex == 0 ||
            instruction.programIdIndex >= tx.accountKeys.size()) {
            return structural(QStringLiteral("instruction %1 has program id index %2, outside "
                                             "the static account keys 1..%3")
                                  .arg(i + 1)
                                  .arg(instruction.programIdIndex)
                                  .arg(tx.accountKeys.size() - 1),
                              instructionOffsets[i]);
        }
        for (const char index : instruction.accountIndexes) {
            if (static_cast<quint8>(index) >= totalAccounts) {
                return structural(QStringLiteral("instruction %1 refers to account %2 of %3")
                                      .arg(i + 1)
                                      .arg(static_cast<quint8>(index))
                                      .arg(totalAccounts),
                                  instructionOffsets[i]);
            }
        }
    }
    return tx;
}

QList<bool> verifySignatures(const Transaction& transaction)
{
    QList<bool> valid;
    valid.reserve(transaction.signatures.size());
    const bool ready = sodiumReady();
    const auto* message = reinterpret_cast<const unsigned char*>(transaction.message.constData());
    const auto messageSize = static_cast<unsigned long long>(transaction.message.size());
    for (qsizetype i = 0; i < transaction.signatures.size(); ++i) {
        const QByteArray& signature = transaction.signatures[i];
        if (!ready || i >= transaction.accountKeys.size() || signature.size() != kSignatureSize ||
            transaction.accountKeys[i].size() != kKeySize) {
            valid.append(false);
            continue;
        }
        valid.append(
            crypto_sign_verify_detached(
                reinterpret_cast<const unsigned char*>(signature.constData()), message, messageSize,
                reinterpret_cast<const unsigned char*>(transaction.accountKeys[i].constData())) ==
            0);
    }
    return valid;
}

bool allSignaturesValid(const Transaction& transaction)
{
    const QList<bool> valid = verifySignatures(transaction);
    return !valid.isEmpty() && !valid.contains(false);
}

} // namespace switchyard::chain::solana
