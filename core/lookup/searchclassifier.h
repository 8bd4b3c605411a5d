#pragma once

#include "config/config.h"

#include <QString>
#include <functional>

namespace switchyard {

// What a support person pasted into the search box.
enum class SearchKind
{
    TransactionId, // a family's transaction id (parseTransactionId)
    IntentId,      // an id the local store tracks
    NodeName,      // the name of a configured node
    Text,          // anything else
};

QString searchKindKey(SearchKind kind); // "transaction-id", "intent-id", ...

struct SearchClassification
{
    SearchKind kind = SearchKind::Text;
    // The text trimmed; an id as parseTransactionId() gives it (EVM: 0x and lower case).
    QString text;
    ChainFamily family = ChainFamily::Solana; // TransactionId: the family its form names
    QString network;                          // NodeName: the network the node belongs to
    QString node;                             // NodeName: the node's name as configured
};

// Whether the local store knows this intent id (no store: leave it empty).
using KnownIntentPredicate = std::function<bool(const QString&)>;

// Decides in this order: transaction id, intent id, node name (exact, or ignoring
// case when only one node matches that way), text. Whitespace around the text is ignored;
// inside it, it makes the text plain Text.
SearchClassification classifySearch(const QString& text, const Config& config,
                                    const KnownIntentPredicate& knownIntent = {});

} // namespace switchyard
