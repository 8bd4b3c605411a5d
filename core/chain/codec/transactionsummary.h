#pragma once

#include "chain/family.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace switchyard::chain {

// What a signed transaction says, in the few facts an operator checks before tracking it or
// while looking it up: who signs, where it goes, how much, and what it may cost. Read from the
// bytes with the decoders `switchyard inspect` uses; nothing is asked of a node.
struct TransactionSummary
{
    struct Field
    {
        QString label; // "From", "Signer", "To", "Amount", "Fee"
        QString value;
    };

    QList<Field> fields;
    QString error; // why the bytes do not decode; no fields then

    bool ok() const { return error.isEmpty(); }
    // "From 0xAb…; To 0xCd…; Amount 21 wei; Fee at most …": one line for a list.
    QString oneLine() const;
    // One "Label: value" line per field.
    QString lines() const;
};

TransactionSummary summarizeTransaction(ChainFamily family, const QByteArray& wire);

} // namespace switchyard::chain
