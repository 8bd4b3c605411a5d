#pragma once

#include "chain/family.h"

#include <QByteArray>
#include <QString>
#include <optional>

// Text a person gave for one transaction, read the same way by every command and dialog that
// takes it (`track`, the Track dialog, `inspect`): an EVM transaction is 0x hex, a Solana one
// base64 or base58 wire bytes, and either may be the transaction's id instead of its bytes.
namespace switchyard::chain {

struct TransactionText
{
    ChainFamily family = ChainFamily::Solana;
    QString watchId;                // the text is an id (a signature or a hash), in its one form
    std::optional<QByteArray> wire; // otherwise the signed bytes
};

// The family `text` is read as: `family` when given, else by its look (0x is EVM).
ChainFamily textFamily(const QString& text, std::optional<ChainFamily> family);

// Reads `text` (no whitespace) as textFamily(text, family). Nullopt, with `error` (what was
// wrong, without where: the caller names the field), for text that is neither.
std::optional<TransactionText>
readTransactionText(const QString& text, std::optional<ChainFamily> family, QString* error);

} // namespace switchyard::chain
