#include "transactionimport.h"

#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "chain/codec/signedtransaction.h"
#include "chain/familyrules.h"
#include "chain/transactionid.h"
#include "chain/transactiontext.h"
#include "tracking/detailmerge.h"
#include "tracking/importentries.h"

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <algorithm>
#include <thread>
#include <vector>

namespace switchyard::tracking {

namespace {

using namespace switchyard::chain;

constexpr qint64 kMaxImportFileBytes = 64LL * 1024 * 1024;

// What one line holds before it becomes a record.
struct LineInput
{
    std::optional<ChainFamily> family; // what the text itself shows, when it does
    QString network;
    QString intentId;
    std::optional<QByteArray> wire;
    QString watchId;
    QString statedId;
    QString statedIdField;
    QString statedSigner;
    QString statedSignerField;
    std::optional<qint64> lastValidBlockHeight;
    QString bytesField; // where the bytes came from, for errors ("wireBase64", "raw", or empty)
};

struct LineError
{
    QString field;
    QString message;
};

// Two ways of writing one id (0X or upper-case hex) are the same id.
bool sameId(const QString& a, const QString& b)
{
    const std::optional<TransactionId> first = parseTransactionId(a);
    const std::optional<TransactionId> second = parseTransactionId(b);
    return first && second ? first->text == second->text : a == b;
}

// The id in its one stored form when `text` is an id of `family`; empty otherwise.
QString idOf(const QString& text, ChainFamily family)
{
    const std::optional<TransactionId> id = parseTransactionId(text);
    return id && id->family == family ? id->text : QString();
}

std::optional<LineError> readText(const QString& text, const QString& field,
                                  std::optional<ChainFamily> family, LineInput& in)
{
    in.family = textFamily(text, family);
    QString error;
    std::optional<TransactionText> read = readTransactionText(text, in.family, &error);
    if (!read)
        return LineError{field, error};
    in.watchId = read->watchId;
    if (read->wire)
        in.wire = std::move(read->wire);
    return std::nullopt;
}

std::optional<LineError> readInteger(const QJsonObject& object, const QString& key,
                                     std::optional<qint64>* out)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (value.isDouble()) {
        const double number = value.toDouble();
        if (number >= 0 && number <= 9007199254740991.0 &&
            number == static_cast<double>(value.toInteger())) {
            *out = value.toInteger();
            return std::nullopt;
        }
    } else if (value.isString()) {
        bool ok = false;
        const qint64 number = value.toString().toLongLong(&ok);
        if (ok && number >= 0) {
            *out = number;
            return std::nullopt;
        }
    }
    return LineError{key, QStringLiteral("must be a non-negative integer")};
}

std::optional<LineError> readString(const QJsonObject& object, const QString& key, QString* out)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isString())
        return LineError{key, QStringLiteral("must be a string")};
    *out = value.toString().trimmed();
    return std::nullopt;
}

const NetworkConfig* findNetwork(const QList<NetworkConfig>& networks, const QString& name)
{
    for (const NetworkConfig& network : networks) {
        if (network.name == name)
            return &network;
    }
    return nullptr;
}

// The JSON fields, minus the bytes (which need the network's family).
std::optional<LineError> readJsonFields(const QJsonObject& object, LineInput& in)
{
    if (auto error = readString(object, QStringLiteral("network"), &in.network))
        return error;
    if (auto error = readString(object, QStringLiteral("intentId"), &in.intentId))
        return error;
    if (auto error =
            readInteger(object, QStringLiteral("lastValidBlockHeight"), &in.lastValidBlockHeight))
        return error;
    for (const char* key : {"id", "signature", "hash"}) {
        QString stated;
        if (auto error = readString(object, QLatin1String(key), &stated))
            return error;
        if (stated.isEmpty())
            continue;
        if (!in.statedId.isEmpty() && !sameId(in.statedId, stated))
            return LineError{QLatin1String(key), QStringLiteral("states %1, but %2 states %3")
                                                     .arg(stated, in.statedIdField, in.statedId)};
        in.statedId = stated;
        in.statedIdField = QLatin1String(key);
    }
    for (const char* key : {"from", "feePayer"}) {
        QString stated;
        if (auto error = readString(object, QLatin1String(key), &stated))
            return error;
        if (stated.isEmpty())
            continue;
        in.statedSigner = stated;
        in.statedSignerField = QLatin1String(key);
    }
    return std::nullopt;
}

class LineImporter
{
public:
    LineImporter(const QList<NetworkConfig>& networks, const ImportDefaults& defaults, qint64 nowMs)
        : m_networks(networks)
        , m_defaults(defaults)
        , m_nowMs(nowMs)
    {}

    // Each line is decoded and verified on its own, which is most of a large import's time (an
    // ed25519 check per signature): a few thousand lines are spread over the cores, then taken
    // in input order.
    void lines(const QList<ImportEntry>& entries)
    {
        const qsizetype count = entries.size();
        const int threads =
            count < kLinesPerThread * 2
                ? 1
                : std::clamp(QThread::idealThreadCount(), 1,
                             int(std::min<qsizetype>(kMaxThreads, count / kLinesPerThread)));
        std::vector<ParsedLine> parsed(static_cast<size_t>(count));
        const auto parseRange = [&](qsizetype from, qsizetype to) {
            for (qsizetype i = from; i < to; ++i) {
                ParsedLine& line = parsed[size_t(i)];
                if (auto error = parse(entries[i].text, line.record))
                    line.error = std::move(error);
            }
        };
        const qsizetype perThread = (count + threads - 1) / threads;
        {
            std::vector<std::jthread> helpers;
            for (int t = 1; t < threads; ++t)
                helpers.emplace_back(parseRange, t * perThread,
                                     std::min(count, (t + 1) * perThread));
            parseRange(0, std::min(count, perThread));
        }
        for (qsizetype i = 0; i < count; ++i)
            takeLine(entries[i].firstLine, std::move(parsed[size_t(i)]));
    }

    ImportResult take() { return std::move(m_result); }

private:
    static constexpr qsizetype kLinesPerThread = 1000;
    static constexpr qsizetype kMaxThreads = 8;

    struct ParsedLine
    {
        TrackedTransaction record;
        std::optional<LineError> error;
    };

    void takeLine(int number, ParsedLine line)
    {
        if (line.error) {
            m_result.errors.append({number, line.error->field, line.error->message});
            return;
        }
        const TrackedTransaction& record = line.record;
        const auto seen = m_lineOf.constFind(record.id);
        if (seen != m_lineOf.cend()) {
            // Tracked once: what the second line adds joins the first (mergeDetails).
            ImportedTransaction& first = m_result.transactions[*seen];
            const DetailMerge merge = mergeDetails(first.record, record);
            for (const DetailConflict& conflict : merge.conflicts)
                m_result.errors.append(
                    {number,
                     {},
                     QStringLiteral("transaction %1 is also on line %2 with %3 %4; here %5")
                         .arg(record.id)
                         .arg(first.line)
                         .arg(conflict.field, conflict.held, conflict.given)});
            if (merge.conflicts.isEmpty())
                first.record = merge.merged;
            return;
        }
        m_lineOf.insert(record.id, m_result.transactions.size());
        m_result.transactions.append({record, number});
    }

    // Reads only what the importer was made with: lines are parsed on several threads at once.
    std::optional<LineError> parse(const QString& text, TrackedTransaction& record) const
    {
        LineInput in;
        const NetworkConfig* network = nullptr;
        if (text.startsWith(QLatin1Char('{'))) {
            QJsonParseError parseError;
            const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &parseError);
            if (!document.isObject())
                return LineError{{},
                                 QStringLiteral("not a JSON object: %1 at character %2")
                                     .arg(parseError.errorString())
                                     .arg(parseError.offset + 1)};
            const QJsonObject object = document.object();
            if (auto error = readJsonFields(object, in))
                return error;
            if (auto error = resolveNetwork(in, &network, QStringLiteral("network")))
                return error;
            QString wireBase64;
            QString raw;
            if (auto error = readString(object, QStringLiteral("wireBase64"), &wireBase64))
                return error;
            if (auto error = readString(object, QStringLiteral("raw"), &raw))
                return error;
            if (!wireBase64.isEmpty() && !raw.isEmpty())
                return LineError{QStringLiteral("raw"),
                                 QStringLiteral("give the bytes once: wireBase64 or raw")};
            if (!wireBase64.isEmpty()) {
                in.bytesField = QStringLiteral("wireBase64");
                if (network && network->family != ChainFamily::Solana)
                    return LineError{in.bytesField,
                                     QStringLiteral("wireBase64 is Solana wire bytes, but "
                                                    "network %1 is EVM (give raw)")
                                         .arg(network->name)};
                const auto bytes = base64Decode(wireBase64);
                if (!bytes)
                    return LineError{in.bytesField,
                                     QStringLiteral("not base64: ") + bytes.error().message};
                in.wire = *bytes;
                in.family = ChainFamily::Solana;
            } else if (!raw.isEmpty()) {
                in.bytesField = QStringLiteral("raw");
                if (auto error =
                        readText(raw, in.bytesField,
                                 network ? std::optional(network->family) : std::nullopt, in))
                    return error;
                if (!in.watchId.isEmpty())
                    return LineError{in.bytesField,
                                     QStringLiteral("is an id, not signed bytes (put it in id)")};
            } else if (!in.statedId.isEmpty()) {
                // Watch-only: the id is all there is.
                in.family = textFamily(in.statedId,
                                       network ? std::optional(network->family) : std::nullopt);
                in.watchId = idOf(in.statedId, *in.family);
                if (in.watchId.isEmpty())
                    return LineError{
                        in.statedIdField,
                        QStringLiteral("is not a %1 transaction id (%2)")
                            .arg(familyName(*in.family), chain::familyRules(*in.family).idForm())};
                in.statedId.clear();
            } else {
                return LineError{{},
                                 QStringLiteral("no transaction: give wireBase64 or raw (the "
                                                "signed bytes), or an id to watch")};
            }
        } else {
            if (auto error = resolveNetwork(in, &network, {}))
                return error;
            if (auto error =
                    readText(text, {}, network ? std::optional(network->family) : std::nullopt, in))
                return error;
        }
        if (!network) {
            if (auto error = networkForFamily(*in.family, &network))
                return error;
        }
        return build(in, *network, record);
    }

    // The line's network, else the default one; unknown names are errors.
    std::optional<LineError> resolveNetwork(LineInput& in, const NetworkConfig** network,
                                            const QString& field) const
    {
        QString name = in.network;
        QString where = field;
        if (name.isEmpty()) {
            name = m_defaults.network;
            where.clear();
        }
        if (name.isEmpty())
            return std::nullopt;
        *network = findNetwork(m_networks, name);
        if (!*network)
            return LineError{where,
                             QStringLiteral("no network named %1 in the configuration").arg(name)};
        in.network = name;
        return std::nullopt;
    }

    std::optional<LineError> networkForFamily(ChainFamily family,
                                              const NetworkConfig** network) const
    {
        QStringList names;
        for (const NetworkConfig& candidate : m_networks) {
            if (candidate.family == family) {
                names << candidate.name;
                *network = &candidate;
            }
        }
        if (names.size() == 1)
            return std::nullopt;
        *network = nullptr;
        if (names.isEmpty())
            return LineError{{},
                             QStringLiteral("this is a %1 transaction and no %1 network is "
                                            "configured")
                                 .arg(familyName(family))};
        return LineError{{},
                         QStringLiteral("which network? %1 are all %2: name one")
                             .arg(names.join(QLatin1String(", ")), familyName(family))};
    }

    std::optional<LineError> build(const LineInput& in, const NetworkConfig& network,
                                   TrackedTransaction& record) const
    {
        record.network = network.name;
        record.family = network.family;
        record.intentId = in.intentId.isEmpty() ? m_defaults.intentId : in.intentId;
        record.lastValidBlockHeight =
            in.lastValidBlockHeight ? in.lastValidBlockHeight : m_defaults.lastValidBlockHeight;
        record.state = TxState::Imported;
        record.createdMs = m_nowMs;
        record.stateSinceMs = m_nowMs;
        if (in.family && *in.family != network.family)
            return LineError{
                in.bytesField,
                QStringLiteral("this is a %1 transaction, but network %2 is %3")
                    .arg(familyName(*in.family), network.name, familyName(network.family))};
        const chain::FamilyRules& rules = chain::familyRules(network.family);
        if (!rules.expiresAtBlockHeight())
            record.lastValidBlockHeight.reset();

        if (!in.wire) {
            record.id = in.watchId;
            return std::nullopt;
        }

        auto decoded = decodeSignedTransaction(network.family, *in.wire);
        if (!decoded)
            return LineError{in.bytesField,
                             QStringLiteral("not a %1 transaction: %2")
                                 .arg(familyName(network.family), decoded.error().message)};
        if (!in.statedId.isEmpty()) {
            if (decoded->id.compare(in.statedId, rules.idCase()) != 0)
                return LineError{in.statedIdField,
                                 QStringLiteral("the bytes are transaction %1, but the line "
                                                "states %2: refused")
                                     .arg(decoded->id, in.statedId)};
        }
        const auto verified = verifyDecodedTransaction(std::move(decoded).value());
        if (!verified)
            return LineError{in.bytesField, QStringLiteral("the bytes are not validly signed: ") +
                                                verified.error().message};
        if (!in.statedSigner.isEmpty() &&
            verified->signer.compare(in.statedSigner, rules.idCase()) != 0)
            return LineError{in.statedSignerField,
                             QStringLiteral("the bytes are signed by %1, but the line states %2")
                                 .arg(verified->signer, in.statedSigner)};

        record.wire = *in.wire;
        record.id = idOf(verified->id, network.family);
        if (const auto* tx = std::get_if<solana::Transaction>(&verified->details))
            record.recentBlockhash = base58Encode(tx->recentBlockhash);
        if (const auto* tx = std::get_if<evm::Transaction>(&verified->details)) {
            record.sender = verified->signer;
            record.nonce = tx->nonce;
        }
        const std::optional<QString> signedFor = rules.signedIdentity(*verified);
        if (signedFor && *signedFor != rules.identityOf(network))
            return LineError{in.bytesField,
                             QStringLiteral("signed for %1 %2, but network %3 is %1 %4")
                                 .arg(rules.identityUnit(), *signedFor, network.name,
                                      rules.identityOf(network))};
        return std::nullopt;
    }

    const QList<NetworkConfig>& m_networks;
    const ImportDefaults& m_defaults;
    qint64 m_nowMs = 0;
    ImportResult m_result;
    QHash<QString, qsizetype> m_lineOf; // id -> index in m_result.transactions
};

} // namespace

QString ImportError::text() const
{
    const QString where = line > 0 ? QStringLiteral("line %1").arg(line) : QString();
    QString out = where;
    if (!field.isEmpty())
        out += (out.isEmpty() ? QString() : QStringLiteral(", ")) +
               QStringLiteral("field \"%1\"").arg(field);
    return out.isEmpty() ? message : out + QStringLiteral(": ") + message;
}

ImportResult importTransactions(const QString& text, const QList<NetworkConfig>& networks,
                                const ImportDefaults& defaults, qint64 nowMs)
{
    LineImporter importer(networks, defaults, nowMs);
    const QList<ImportEntry> entries = importEntries(text);
    importer.lines(entries);
    ImportResult result = importer.take();
    if (entries.isEmpty())
        result.errors.append({0, {}, QStringLiteral("the input holds no transaction")});
    return result;
}

ImportResult importTransactionFile(const QString& path, const QList<NetworkConfig>& networks,
                                   const ImportDefaults& defaults, qint64 nowMs)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {{}, {{0, {}, QStringLiteral("cannot read %1: %2").arg(path, file.errorString())}}};
    const QByteArray contents = file.read(kMaxImportFileBytes + 1);
    if (contents.size() > kMaxImportFileBytes)
        return {
            {},
            {{0,
              {},
              QStringLiteral("%1 is larger than %2 bytes").arg(path).arg(kMaxImportFileBytes)}}};
    ImportResult result =
        importTransactions(QString::fromUtf8(contents), networks, defaults, nowMs);
    for (ImportError& error : result.errors)
        error.message = (error.line == 0 ? path + QStringLiteral(": ") : QString()) + error.message;
    return result;
}

} // namespace switchyard::tracking
