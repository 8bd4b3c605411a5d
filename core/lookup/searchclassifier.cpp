#include "searchclassifier.h"

#include "chain/codec/base58.h"

namespace switchyard {

namespace {

constexpr qsizetype kSignatureBytes = 64;
constexpr qsizetype kEvmHashDigits = 64;

bool isEvmHash(const QString& text)
{
    if (text.size() != 2 + kEvmHashDigits ||
        !text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        return false;
    for (qsizetype i = 2; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        const bool hex =
            (c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F');
        if (!hex)
            return false;
    }
    return true;
}

bool isSolanaSignature(const QString& text)
{
    // 64 bytes are 87 or 88 base58 characters (fewer only with leading zero bytes).
    if (text.isEmpty() || text.size() > 88)
        return false;
    const chain::DecodeResult<QByteArray> bytes = chain::base58Decode(text);
    return bytes && bytes->size() == kSignatureBytes;
}

} // namespace

QString searchKindKey(SearchKind kind)
{
    switch (kind) {
    case SearchKind::SolanaSignature:
        return QStringLiteral("solana-signature");
    case SearchKind::EvmHash:
        return QStringLiteral("evm-hash");
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
    if (isEvmHash(trimmed)) {
        result.kind = SearchKind::EvmHash;
        result.text = trimmed.toLower();
        return result;
    }
    if (isSolanaSignature(trimmed)) {
        result.kind = SearchKind::SolanaSignature;
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
