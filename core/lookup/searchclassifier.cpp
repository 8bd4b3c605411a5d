#include "searchclassifier.h"

#include "chain/transactionid.h"

namespace switchyard {

QString searchKindKey(SearchKind kind)
{
    switch (kind) {
    case SearchKind::TransactionId:
        return QStringLiteral("transaction-id");
    case SearchKind::IntentId:
        return QStringLiteral("intent-id");
    case SearchKind::NodeName:
        return QStringLiteral("node-name");
    case SearchKind::Text:
        return QStringLiteral("text");
    }
    Q_UNREACHABLE();
}

SearchClassification classifySearch(const QString& text, const Config& config,
                                    const KnownIntentPredicate& knownIntent)
{
    SearchClassification result;
    result.text = text.trimmed();
    const QString& trimmed = result.text;
    if (trimmed.isEmpty())
        return result;
    if (const std::optional<TransactionId> id = parseTransactionId(trimmed)) {
        result.kind = SearchKind::TransactionId;
        result.family = id->family;
        result.text = id->text;
        return result;
    }
    if (knownIntent && knownIntent(trimmed)) {
        result.kind = SearchKind::IntentId;
        return result;
    }
    const NetworkConfig* caseInsensitiveNetwork = nullptr;
    QString caseInsensitiveNode;
    int caseInsensitiveMatches = 0;
    for (const NetworkConfig& network : config.networks) {
        for (const NodeConfig& node : network.nodes) {
            if (node.name == trimmed) {
                result.kind = SearchKind::NodeName;
                result.network = network.name;
                result.node = node.name;
                return result;
            }
            if (node.name.compare(trimmed, Qt::CaseInsensitive) == 0) {
                ++caseInsensitiveMatches;
                caseInsensitiveNetwork = &network;
                caseInsensitiveNode = node.name;
            }
        }
    }
    if (caseInsensitiveMatches == 1) {
        result.kind = SearchKind::NodeName;
        result.network = caseInsensitiveNetwork->name;
        result.node = caseInsensitiveNode;
    }
    return result;
}

} // namespace switchyard
