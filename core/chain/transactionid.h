#pragma once

#include "chain/family.h"

#include <QString>
#include <QStringView>
#include <optional>

namespace switchyard {

// A transaction id in the one form Switchyard stores, looks up, compares and prints.
struct TransactionId
{
    ChainFamily family = ChainFamily::Solana;
    QString text;
};

// What every command and the search box do with an id someone typed or pasted. EVM: "0x" or
// "0X" and 64 hex digits of any case become "0x" and lower case, the form nodes and the store
// use. Solana: a base58 signature of 64 bytes stays exactly as written (base58 is
// case-sensitive: another case is another id). Whitespace around the id is ignored; anything
// else is not an id (nullopt).
std::optional<TransactionId> parseTransactionId(QStringView text);

} // namespace switchyard
