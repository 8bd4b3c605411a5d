#include "configvalidation.h"

#include "chain/codec/base58.h"
#include "config/cafile.h"
#include "config/configread.h"
#include "config/configsyntax.h"
#include "config/didyoumean.h"
#include "config/envtemplate.h"
#include "config/jsonsourcemap.h"
#include "config/redaction.h"
#include "store/storelocation.h"

#include <QDir>
#include <QJsonArray>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace switchyard {

namespace {

// JSON numbers are doubles: integers above 2^53 would silently change on the way in.
constexpr qint64 maxExactInteger = (qint64(1) << 53) - 1;
constexpr qint64 maxInt = std::numeric_limits<int>::max();

const QStringList rootKeys = {
    QStringLiteral("networks"), QStringLiteral("probe"), QStringLiteral("reconfigureGraceMs"),
    QStringLiteral("alerts"),   QStringLiteral("db"),    QStringLiteral("probeFromThisDesk")};
const QStringList networkKeys = {
    QStringLiteral("name"),    QStringLiteral("family"),     QStringLiteral("genesisHash"),
    QStringLiteral("chainId"), QStringLiteral("commitment"), QStringLiteral("checkSyncing"),
    QStringLiteral("warnLag"), QStringLiteral("maxLag"),     QStringLiteral("explorer"),
    QStringLiteral("nodes"),   QStringLiteral("caFile")};
const QStringList nodeKeys = {QStringLiteral("name"),          QStringLiteral("url"),
                              QStringLiteral("roles"),         QStringLiteral("headers"),
                              QStringLiteral("wsUrl"),         QStringLiteral("caFile"),
                              QStringLiteral("cleartextHttp2")};
const QStringList probeKeys = {
    QStringLiteral("intervalMs"),         QStringLiteral("timeoutMs"),
    QStringLiteral("recoveryIntervalMs"), QStringLiteral("probationProbes"),
    QStringLiteral("pushSilentMs"),       QStringLiteral("agreementIntervalMs")};
const QStringList commitments = {QStringLiteral("processed"), QStringLiteral("confirmed"),
                                 QStringLiteral("finalized")};

QString quotedList(const QStringList& items)
{
    QStringList quotedItems;
    for (const QString& item : items)
        quotedItems << quotedForMessage(item);
    return quotedItems.join(QStringLiteral(", "));
}

QString numberText(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

// What a value is, for "expected X, got Y". Strings are not quoted here: they may be secrets.
QString describe(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return numberText(value.toDouble());
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

bool isHttpToken(const QString& name)
{
    static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"));
    return token.match(name).hasMatch();
}

// The integer a JSON number literal stands for, judged on its digits: QJsonDocument's double
// cannot tell 9007199254740993 from 9007199254740992, nor 1.00000000000000001 from 1.
struct LiteralInteger
{
    enum class Kind
    {
        Integer,
        Fraction,
        OutOfRange, // beyond qint64; value is the end of the range on its side
    };
    Kind kind = Kind::Integer;
    qint64 value = 0;
};

LiteralInteger integerOfLiteral(const QByteArray& literal)
{
    const auto isDigit = [](char c) {
        return c >= '0' && c <= '9';
    };
    qsizetype i = 0;
    const bool negative = literal.startsWith('-');
    if (negative)
        ++i;
    QByteArray digits;
    qint64 exponent = 0;
    for (; i < literal.size() && isDigit(literal.at(i)); ++i)
        digits += literal.at(i);
    if (i < literal.size() && literal.at(i) == '.') {
        for (++i; i < literal.size() && isDigit(literal.at(i)); ++i, --exponent)
            digits += literal.at(i);
    }
    if (i < literal.size() && (literal.at(i) == 'e' || literal.at(i) == 'E')) {
        ++i;
        const bool negativeExponent = i < literal.size() && literal.at(i) == '-';
        if (i < literal.size() && (literal.at(i) == '-' || literal.at(i) == '+'))
            ++i;
        qint64 written = 0;
        for (; i < literal.size() && isDigit(literal.at(i)); ++i)
            written = std::min<qint64>(written * 10 + (literal.at(i) - '0'), maxConfigFileBytes);
        exponent += negativeExponent ? -written : written;
    }
    while (digits.startsWith('0'))
        digits.remove(0, 1);
    while (digits.endsWith('0')) {
        digits.chop(1);
        ++exponent;
    }
    if (digits.isEmpty())
        return {};
    if (exponent < 0)
        return {LiteralInteger::Kind::Fraction, 0};
    const LiteralInteger outOfRange{LiteralInteger::Kind::OutOfRange,
                                    negative ? std::numeric_limits<qint64>::min()
                                             : std::numeric_limits<qint64>::max()};
    if (digits.size() + exponent > std::numeric_limits<qint64>::digits10 + 1)
        return outOfRange;
    digits.append(exponent, '0');
    qint64 value = 0;
    for (const char digit : std::as_const(digits)) {
        if (value > (std::numeric_limits<qint64>::max() - (digit - '0')) / 10)
            return outOfRange;
        value = value * 10 + (digit - '0');
    }
    return {LiteralInteger::Kind::Integer, negative ? -value : value};
}

// The port of an http(s) URL when it is one no connection can use: QUrl takes 0 as a port and
// rejects anything above 65535 without saying that the port is why.
std::optional<QString> unusablePort(const QString& url)
{
    const qsizetype schemeEnd = url.indexOf(QLatin1String("://"));
    if (schemeEnd < 0)
        return std::nullopt;
    const qsizetype start = schemeEnd + 3;
    qsizetype end = start;
    while (end < url.size() && url.at(end) != u'/' && url.at(end) != u'?' && url.at(end) != u'#')
        ++end;
    QStringView authority = QStringView(url).mid(start, end - start);
    authority = authority.mid(authority.lastIndexOf(u'@') + 1);
    const qsizetype hostEnd = authority.startsWith(u'[') ? authority.indexOf(u']') : 0;
    const qsizetype colon = authority.indexOf(u':', std::max<qsizetype>(hostEnd, 0));
    if (colon < 0)
        return std::nullopt;
    const QStringView port = authority.mid(colon + 1);
    if (port.isEmpty() ||
        !std::all_of(port.begin(), port.end(), [](QChar c) { return c.isDigit(); }))
        return std::nullopt;
    QStringView significant = port;
    while (significant.startsWith(u'0'))
        significant = significant.mid(1);
    if (significant.isEmpty() || significant.size() > 5 || significant.toInt() > 65535)
        return port.toString();
    return std::nullopt;
}

// Turns parsed JSON into a Config, collecting every problem instead of stopping at the first.
class Validator
{
public:
    Validator(const QString& sourceName, const QByteArray& json, const JsonSourceMap& sourceMap,
              const QProcessEnvironment& env, MissingVariables missingVariables)
        : m_source(sourceName)
        , m_json(json)
        , m_sourceMap(sourceMap)
        , m_env(env)
        , m_missingVariables(missingVariables)
    {}

    Config root(const QJsonObject& object);
    const QList<ConfigError>& errors() const { return m_errors; }

private:
    void error(const QString& path, const QString& message)
    {
        m_errors.append({m_source, 0, 0, path, message});
    }
    // With the line and column of the value, for a problem easier found by eye than by path.
    void errorAt(const QString& path, const QString& message)
    {
        const qsizetype offset = m_sourceMap.valueOffset(path).value_or(0);
        m_errors.append(
            {m_source, lineOf(m_json, offset), columnOf(m_json, offset), path, message});
    }
    void missing(const QString& path, const QString& expected)
    {
        error(path, QStringLiteral("missing; expected ") + expected);
    }
    void wrongType(const QString& path, const QString& expected, const QJsonValue& value)
    {
        // A number as written: its double may differ (9007199254740993 reads as ...992).
        const QByteArray literal = value.isDouble() ? m_sourceMap.numberText(path) : QByteArray();
        wrongType(path, expected,
                  literal.isEmpty() ? describe(value) : QString::fromLatin1(literal));
    }
    void wrongType(const QString& path, const QString& expected, const QString& got)
    {
        error(path, QStringLiteral("expected %1, got %2").arg(expected, got));
    }

    void checkKeys(const QJsonObject& object, const QString& path, const QStringList& allowed);
    std::optional<QString> string(const QJsonObject& object, const QString& key,
                                  const QString& path, const QString& expected, bool required);
    std::optional<QString> name(const QJsonObject& object, const QString& path,
                                const QString& what);
    std::optional<qint64> integer(const QJsonObject& object, const QString& key,
                                  const QString& path, qint64 minimum, qint64 maximum);
    std::optional<bool> boolean(const QJsonObject& object, const QString& key, const QString& path);
    void onlyFor(const QJsonObject& object, const QString& key, const QString& path,
                 ChainFamily family, const QString& hint = QString());
    std::optional<QString> expand(const QString& templateText, const QString& path);

    NetworkConfig network(const QJsonValue& value, const QString& path);
    NodeConfig node(const QJsonValue& value, const QString& path);
    void url(const QJsonObject& object, const QString& path, NodeConfig& node);
    void wsUrl(const QJsonObject& object, const QString& path, NodeConfig& node);
    // A URL of one of `schemes` with a host and a usable port, ${NAME} expanded; the text as
    // written goes to `written`.
    std::optional<QUrl> endpoint(const QJsonObject& object, const QString& path, const QString& key,
                                 const QStringList& schemes, bool required, QString& written);
    void roles(const QJsonObject& object, const QString& path, NodeConfig& node);
    void headers(const QJsonObject& object, const QString& path, NodeConfig& node);
    void genesisHash(const QJsonObject& object, const QString& path, NetworkConfig& network);
    void explorer(const QJsonObject& object, const QString& path, NetworkConfig& network);
    std::optional<QString> caFile(const QJsonObject& object, const QString& path);
    void cleartextHttp2(const QJsonObject& object, const QString& path, NodeConfig& node);
    void lags(const QJsonObject& object, const QString& path, NetworkConfig& network);
    ProbeConfig probe(const QJsonValue& value, const QString& path);
    AlertRules alerts(const QJsonValue& value, const QString& path);
    void alertRule(const QJsonValue& value, const QString& path, const QString& rule,
                   AlertRule& parsed);

    QString m_source;
    const QByteArray& m_json;
    const JsonSourceMap& m_sourceMap;
    QProcessEnvironment m_env;
    MissingVariables m_missingVariables;
    QList<ConfigError> m_errors;
    QMap<QString, QString> m_usedVariables;
};

void Validator::checkKeys(const QJsonObject& object, const QString& path,
                          const QStringList& allowed)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (allowed.contains(it.key()))
            continue;
        error(jsonChildPath(path, it.key()),
              QStringLiteral("unknown key") + didYouMean(it.key(), allowed) +
                  QStringLiteral("; expected one of: ") + allowed.join(QStringLiteral(", ")));
    }
}

std::optional<QString> Validator::string(const QJsonObject& object, const QString& key,
                                         const QString& path, const QString& expected,
                                         bool required)
{
    const QJsonValue value = object.value(key);
    const QString keyPath = jsonChildPath(path, key);
    if (value.isUndefined()) {
        if (required)
            missing(keyPath, expected);
        return std::nullopt;
    }
    if (!value.isString()) {
        wrongType(keyPath, expected, value);
        return std::nullopt;
    }
    return value.toString();
}

std::optional<QString> Validator::name(const QJsonObject& object, const QString& path,
                                       const QString& what)
{
    const QString expected = QStringLiteral("a non-empty %1 name").arg(what);
    std::optional<QString> text =
        string(object, QStringLiteral("name"), path, expected, /*required=*/true);
    if (!text)
        return std::nullopt;
    // Names end up on lines that monitoring systems parse: a line break would forge a line.
    const auto layout = std::find_if(text->cbegin(), text->cend(), isLayoutCharacter);
    if (layout != text->cend()) {
        errorAt(jsonChildPath(path, QStringLiteral("name")),
                QStringLiteral("expected a %1 name without control characters, got %2 (%3 at "
                               "character %4)")
                    .arg(what, quotedForMessage(*text), escapedForMessage(QString(*layout)),
                         QString::number(layout - text->cbegin() + 1)));
        return std::nullopt;
    }
    // Names are told apart by eye: "main" and "main\u200b" must not both be, nor be confused.
    if (const auto invisible = firstInvisibleCharacter(*text)) {
        errorAt(
            jsonChildPath(path, QStringLiteral("name")),
            QStringLiteral("expected a %1 name without invisible characters, got %2 (U+%3 at "
                           "character %4; the name reads as %5)")
                .arg(what, quotedForMessage(*text),
                     QString::number(invisible->codePoint, 16).toUpper().rightJustified(4, u'0'),
                     QString::number(invisible->position),
                     quotedForMessage(withoutInvisibleCharacters(*text))));
        return std::nullopt;
    }
    if (text->trimmed().isEmpty() || text->trimmed() != *text) {
        error(jsonChildPath(path, QStringLiteral("name")),
              QStringLiteral("expected %1 without leading or trailing spaces, got %2")
                  .arg(expected, quotedForMessage(*text)));
        return std::nullopt;
    }
    return text;
}

std::optional<qint64> Validator::integer(const QJsonObject& object, const QString& key,
                                         const QString& path, qint64 minimum, qint64 maximum)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return std::nullopt;
    const QString keyPath = jsonChildPath(path, key);
    QString expected = minimum > 1    ? QStringLiteral("an integer of at least %1").arg(minimum)
                       : minimum == 1 ? QStringLiteral("a positive integer")
                       : minimum == 0 ? QStringLiteral("a non-negative integer")
                                      : QStringLiteral("an integer");
    if (!value.isDouble()) {
        wrongType(keyPath, expected, value);
        return std::nullopt;
    }
    QByteArray literal = m_sourceMap.numberText(keyPath);
    if (literal.isEmpty())
        literal = QByteArray::number(value.toDouble(), 'g', 17);
    const LiteralInteger number = integerOfLiteral(literal);
    const bool fraction = number.kind == LiteralInteger::Kind::Fraction;
    if (!fraction && number.value > maximum)
        expected += QStringLiteral(" up to ") + QString::number(maximum);
    if (fraction || number.value < minimum || number.value > maximum) {
        wrongType(keyPath, expected, QString::fromLatin1(literal));
        return std::nullopt;
    }
    return number.value;
}

std::optional<bool> Validator::boolean(const QJsonObject& object, const QString& key,
                                       const QString& path)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return std::nullopt;
    if (!value.isBool()) {
        wrongType(jsonChildPath(path, key), QStringLiteral("true or false"), value);
        return std::nullopt;
    }
    return value.toBool();
}

void Validator::onlyFor(const QJsonObject& object, const QString& key, const QString& path,
                        ChainFamily family, const QString& hint)
{
    if (!object.contains(key))
        return;
    error(jsonChildPath(path, key),
          QStringLiteral("only applies to %1 networks%2")
              .arg(familyName(family), hint.isEmpty() ? hint : u"; " + hint));
}

std::optional<QString> Validator::expand(const QString& templateText, const QString& path)
{
    const EnvTemplate parsed(templateText);
    if (!parsed.isValid()) {
        error(path, parsed.error());
        return std::nullopt;
    }
    const EnvTemplate::Expansion expansion = parsed.expand(m_env);
    bool complete = expansion.missing.isEmpty();
    if (m_missingVariables == MissingVariables::AreErrors) {
        for (const QString& variable : expansion.missing)
            error(path, QStringLiteral("environment variable %1 is not set").arg(variable));
        for (const QString& variable : expansion.empty)
            error(path, QStringLiteral("environment variable %1 is empty").arg(variable));
        complete = complete && expansion.empty.isEmpty();
    }
    if (!complete)
        return std::nullopt;
    m_usedVariables.insert(expansion.used);
    return expansion.value;
}

Config Validator::root(const QJsonObject& object)
{
    Config config;
    checkKeys(object, QString(), rootKeys);

    const QString networksKey = QStringLiteral("networks");
    const QJsonValue networks = object.value(networksKey);
    if (networks.isUndefined()) {
        missing(networksKey, QStringLiteral("an array of networks"));
    } else if (!networks.isArray()) {
        wrongType(networksKey, QStringLiteral("an array of networks"), networks);
    } else {
        const QJsonArray array = networks.toArray();
        QMap<QString, QString> seen; // lower-case name -> path of its first use
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString path = jsonItemPath(networksKey, i);
            NetworkConfig parsed = network(array.at(i), path);
            if (!parsed.name.isEmpty()) {
                const QString folded = parsed.name.toCaseFolded();
                if (seen.contains(folded)) {
                    error(jsonChildPath(path, QStringLiteral("name")),
                          QStringLiteral("duplicate network name %1 (also used by %2; names are "
                                         "compared ignoring case)")
                              .arg(quotedForMessage(parsed.name), seen.value(folded)));
                } else {
                    seen.insert(folded, path);
                }
            }
            config.networks.append(std::move(parsed));
        }
    }

    const QString probeKey = QStringLiteral("probe");
    if (object.contains(probeKey))
        config.probe = probe(object.value(probeKey), probeKey);

    const QString graceKey = QStringLiteral("reconfigureGraceMs");
    if (const auto grace = integer(object, graceKey, QString(), 0, maxInt))
        config.reconfigureGraceMs = int(*grace);

    const QString alertsKey = QStringLiteral("alerts");
    if (object.contains(alertsKey))
        config.alerts = alerts(object.value(alertsKey), alertsKey);

    const QString dbKey = QStringLiteral("db");
    const QString dbExpected =
        QStringLiteral("an SQLite file's absolute path or a postgresql:// URL");
    if (const auto db = string(object, dbKey, QString(), dbExpected, false)) {
        QString why;
        const store::StoreLocation location = store::StoreLocation::parse(*db, &why);
        if (!why.isEmpty())
            error(dbKey, why);
        else if (!location.isPostgres() && !QDir::isAbsolutePath(*db))
            error(dbKey,
                  QStringLiteral("expected %1, got %2").arg(dbExpected, quotedForMessage(*db)));
        else
            config.db = *db;
    }

    if (const auto probeToo = boolean(object, QStringLiteral("probeFromThisDesk"), QString()))
        config.probeFromThisDesk = *probeToo;

    config.usedVariables = m_usedVariables;
    return config;
}

ProbeConfig Validator::probe(const QJsonValue& value, const QString& path)
{
    ProbeConfig probe;
    if (!value.isObject()) {
        wrongType(path, QStringLiteral("an object with ") + probeKeys.join(QStringLiteral(", ")),
                  value);
        return probe;
    }
    const QJsonObject object = value.toObject();
    checkKeys(object, path, probeKeys);
    if (const auto interval = integer(object, QStringLiteral("intervalMs"), path, 1, maxInt))
        probe.intervalMs = int(*interval);
    if (const auto timeout = integer(object, QStringLiteral("timeoutMs"), path, 1, maxInt))
        probe.timeoutMs = int(*timeout);
    if (const auto recovery =
            integer(object, QStringLiteral("recoveryIntervalMs"), path, 0, maxInt))
        probe.recoveryIntervalMs = int(*recovery);
    if (const auto probation = integer(object, QStringLiteral("probationProbes"), path, 1, maxInt))
        probe.probationProbes = int(*probation);
    if (const auto silent = integer(object, QStringLiteral("pushSilentMs"), path, 1000, maxInt))
        probe.pushSilentMs = int(*silent);
    if (const auto agreement =
            integer(object, QStringLiteral("agreementIntervalMs"), path, 0, maxInt))
        probe.agreementIntervalMs = int(*agreement);
    return probe;
}

AlertRules Validator::alerts(const QJsonValue& value, const QString& path)
{
    AlertRules rules;
    const QStringList keys = QStringList{QStringLiteral("muteMinutes")} + alertRuleKeys();
    if (!value.isObject()) {
        wrongType(path, QStringLiteral("an object with ") + keys.join(QStringLiteral(", ")), value);
        return rules;
    }
    const QJsonObject object = value.toObject();
    checkKeys(object, path, keys);
    // A mute longer than a day is a rule switched off: that is what "enabled" says.
    constexpr qint64 minutesPerDay = 24 * 60;
    if (const auto minutes = integer(object, QStringLiteral("muteMinutes"), path, 1, minutesPerDay))
        rules.muteMinutes = int(*minutes);
    for (const QString& rule : alertRuleKeys()) {
        if (object.contains(rule))
            alertRule(object.value(rule), jsonChildPath(path, rule), rule,
                      *switchyard::alertRule(rules, rule));
    }
    return rules;
}

void Validator::alertRule(const QJsonValue& value, const QString& path, const QString& rule,
                          AlertRule& parsed)
{
    const QStringList keys = alertRuleParameters(rule);
    if (!value.isObject()) {
        wrongType(path, QStringLiteral("an object with ") + keys.join(QStringLiteral(", ")), value);
        return;
    }
    const QJsonObject object = value.toObject();
    checkKeys(object, path, keys);
    if (const auto enabled = boolean(object, QStringLiteral("enabled"), path))
        parsed.enabled = *enabled;
    // Seconds kept within an int of milliseconds, the unit the monitor counts in.
    constexpr qint64 maxSeconds = maxInt / 1000;
    if (const auto cooldown = integer(object, QStringLiteral("cooldownS"), path, 0, maxSeconds))
        parsed.cooldownS = int(*cooldown);
    if (keys.contains(QLatin1String("afterS"))) {
        if (const auto after = integer(object, QStringLiteral("afterS"), path, 0, maxSeconds))
            parsed.afterS = int(*after);
    }
    if (keys.contains(QLatin1String("blocksLeft"))) {
        if (const auto blocks = integer(object, QStringLiteral("blocksLeft"), path, 1, maxInt))
            parsed.blocksLeft = int(*blocks);
    }
}

NetworkConfig Validator::network(const QJsonValue& value, const QString& path)
{
    NetworkConfig network;
    if (!value.isObject()) {
        wrongType(path, QStringLiteral("a network object"), value);
        return network;
    }
    const QJsonObject object = value.toObject();
    checkKeys(object, path, networkKeys);

    if (const auto networkName = name(object, path, QStringLiteral("network")))
        network.name = *networkName;

    std::optional<ChainFamily> family;
    const QStringList families = {familyName(ChainFamily::Solana), familyName(ChainFamily::Evm)};
    const QString familyExpected = QStringLiteral("one of ") + quotedList(families);
    if (const auto familyText =
            string(object, QStringLiteral("family"), path, familyExpected, true)) {
        family = familyFromName(*familyText);
        if (family)
            network.family = *family;
        else
            error(jsonChildPath(path, QStringLiteral("family")),
                  QStringLiteral("expected %1, got %2")
                      .arg(familyExpected, quotedForMessage(*familyText)));
    }

    if (family == ChainFamily::Solana) {
        genesisHash(object, path, network);
        const QString commitmentExpected = QStringLiteral("one of ") + quotedList(commitments);
        if (const auto commitment =
                string(object, QStringLiteral("commitment"), path, commitmentExpected, false)) {
            if (commitments.contains(*commitment))
                network.commitment = *commitment;
            else
                error(jsonChildPath(path, QStringLiteral("commitment")),
                      QStringLiteral("expected %1, got %2")
                          .arg(commitmentExpected, quotedForMessage(*commitment)));
        }
        onlyFor(object, QStringLiteral("chainId"), path, ChainFamily::Evm,
                QStringLiteral("a solana network is identified by genesisHash"));
        onlyFor(object, QStringLiteral("checkSyncing"), path, ChainFamily::Evm);
    } else if (family == ChainFamily::Evm) {
        const QString chainIdKey = QStringLiteral("chainId");
        if (!object.contains(chainIdKey))
            missing(jsonChildPath(path, chainIdKey),
                    QStringLiteral("the chain id (a positive integer) for an evm network"));
        else if (const auto chainId = integer(object, chainIdKey, path, 1, maxExactInteger))
            network.chainId = quint64(*chainId);
        if (const auto checkSyncing = boolean(object, QStringLiteral("checkSyncing"), path))
            network.checkSyncing = *checkSyncing;
        onlyFor(object, QStringLiteral("genesisHash"), path, ChainFamily::Solana,
                QStringLiteral("an evm network is identified by chainId"));
        onlyFor(object, QStringLiteral("commitment"), path, ChainFamily::Solana);
    }

    lags(object, path, network);
    explorer(object, path, network);
    if (const auto file = caFile(object, path))
        network.caFile = *file;

    const QString nodesKey = QStringLiteral("nodes");
    const QString nodesPath = jsonChildPath(path, nodesKey);
    const QJsonValue nodes = object.value(nodesKey);
    const QString nodesExpected = QStringLiteral("a non-empty array of nodes");
    if (nodes.isUndefined()) {
        missing(nodesPath, nodesExpected);
    } else if (!nodes.isArray() || nodes.toArray().isEmpty()) {
        wrongType(nodesPath, nodesExpected,
                  nodes.isArray() ? QStringLiteral("an empty array") : describe(nodes));
    } else {
        const QJsonArray array = nodes.toArray();
        QMap<QString, QString> seen;
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString nodePath = jsonItemPath(nodesPath, i);
            NodeConfig parsed = node(array.at(i), nodePath);
            if (!parsed.name.isEmpty()) {
                const QString folded = parsed.name.toCaseFolded();
                if (seen.contains(folded)) {
                    error(jsonChildPath(nodePath, QStringLiteral("name")),
                          QStringLiteral("duplicate node name %1 in this network (also used by "
                                         "%2; names are compared ignoring case)")
                              .arg(quotedForMessage(parsed.name), seen.value(folded)));
                } else {
                    seen.insert(folded, nodePath);
                }
            }
            network.nodes.append(std::move(parsed));
        }
    }
    return network;
}

void Validator::genesisHash(const QJsonObject& object, const QString& path, NetworkConfig& network)
{
    const QString key = QStringLiteral("genesisHash");
    const QString expected = QStringLiteral("the cluster's genesis hash (base58, 32 bytes)");
    if (!object.contains(key)) {
        missing(jsonChildPath(path, key), expected + QStringLiteral(" for a solana network"));
        return;
    }
    const auto hash = string(object, key, path, expected, true);
    if (!hash)
        return;
    QString why;
    if (hash->size() > 64) {
        why = QStringLiteral("%1 characters").arg(hash->size());
    } else if (const auto bytes = chain::base58Decode(*hash); !bytes.ok()) {
        why = QStringLiteral("%1 is not a base58 character")
                  .arg(quotedForMessage(hash->at(bytes.error().offset)));
    } else if (bytes.value().size() != 32) {
        why = QStringLiteral("decodes to %1 bytes").arg(bytes.value().size());
    } else {
        network.genesisHash = *hash;
        return;
    }
    error(jsonChildPath(path, key),
          QStringLiteral("expected %1, got %2 (%3)").arg(expected, quotedForMessage(*hash), why));
}

void Validator::lags(const QJsonObject& object, const QString& path, NetworkConfig& network)
{
    const LagThresholds defaults = defaultLagThresholds(network.family);
    const auto warn = integer(object, QStringLiteral("warnLag"), path, 0, maxExactInteger);
    const auto max = integer(object, QStringLiteral("maxLag"), path, 0, maxExactInteger);
    network.warnLag = warn.value_or(defaults.warnLag);
    network.maxLag = max.value_or(defaults.maxLag);
    const bool warnValid = warn || !object.contains(QStringLiteral("warnLag"));
    const bool maxValid = max || !object.contains(QStringLiteral("maxLag"));
    if (warnValid && maxValid && network.warnLag > network.maxLag) {
        const QString key = warn ? QStringLiteral("warnLag") : QStringLiteral("maxLag");
        error(jsonChildPath(path, key),
              QStringLiteral("expected warnLag <= maxLag, got warnLag %1%2 and maxLag %3%4")
                  .arg(network.warnLag)
                  .arg(warn ? QString() : QStringLiteral(" (the default)"))
                  .arg(network.maxLag)
                  .arg(max ? QString() : QStringLiteral(" (the default)")));
    }
}

void Validator::explorer(const QJsonObject& object, const QString& path, NetworkConfig& network)
{
    const QString key = QStringLiteral("explorer");
    const QString expected = QStringLiteral("an http or https URL containing {id}");
    const auto text = string(object, key, path, expected, false);
    if (!text)
        return;
    QString sample = *text;
    sample.replace(QStringLiteral("{id}"), QStringLiteral("x"));
    const QUrl url(sample, QUrl::StrictMode);
    const bool web = url.isValid() && !url.host().isEmpty() &&
                     (url.scheme() == u"http" || url.scheme() == u"https");
    if (!text->contains(QStringLiteral("{id}")) || !web) {
        error(jsonChildPath(path, key),
              QStringLiteral("expected %1, got %2")
                  .arg(expected, quotedForMessage(redactedUrlText(*text))));
        return;
    }
    network.explorer = *text;
}

NodeConfig Validator::node(const QJsonValue& value, const QString& path)
{
    NodeConfig node;
    if (!value.isObject()) {
        wrongType(path, QStringLiteral("a node object"), value);
        return node;
    }
    const QJsonObject object = value.toObject();
    checkKeys(object, path, nodeKeys);
    if (const auto nodeName = name(object, path, QStringLiteral("node")))
        node.name = *nodeName;
    url(object, path, node);
    wsUrl(object, path, node);
    roles(object, path, node);
    headers(object, path, node);
    if (const auto file = caFile(object, path))
        node.caFile = *file;
    cleartextHttp2(object, path, node);
    return node;
}

std::optional<QString> Validator::caFile(const QJsonObject& object, const QString& path)
{
    const QString key = QStringLiteral("caFile");
    const QString expected = QStringLiteral("the absolute path of a PEM file of certificate "
                                            "authorities");
    const auto text = string(object, key, path, expected, false);
    if (!text)
        return std::nullopt;
    if (!QDir::isAbsolutePath(*text)) {
        error(jsonChildPath(path, key),
              QStringLiteral("expected %1, got %2").arg(expected, quotedForMessage(*text)));
        return std::nullopt;
    }
    QString why;
    if (!readCaFile(*text, &why)) {
        error(jsonChildPath(path, key), why);
        return std::nullopt;
    }
    return *text;
}

void Validator::cleartextHttp2(const QJsonObject& object, const QString& path, NodeConfig& node)
{
    const QString key = QStringLiteral("cleartextHttp2");
    const auto on = boolean(object, key, path);
    if (!on)
        return;
    if (*on && node.url.scheme() == u"https") {
        error(jsonChildPath(path, key),
              QStringLiteral("only applies to http:// URLs; over https:// HTTP/2 is agreed in the "
                             "TLS handshake"));
        return;
    }
    node.cleartextHttp2 = *on;
}

void Validator::url(const QJsonObject& object, const QString& path, NodeConfig& node)
{
    if (const auto url =
            endpoint(object, path, QStringLiteral("url"),
                     {QStringLiteral("http"), QStringLiteral("https")}, true, node.urlTemplate))
        node.url = *url;
}

void Validator::wsUrl(const QJsonObject& object, const QString& path, NodeConfig& node)
{
    if (const auto url =
            endpoint(object, path, QStringLiteral("wsUrl"),
                     {QStringLiteral("ws"), QStringLiteral("wss")}, false, node.wsUrlTemplate))
        node.wsUrl = *url;
}

std::optional<QUrl> Validator::endpoint(const QJsonObject& object, const QString& path,
                                        const QString& key, const QStringList& schemes,
                                        bool required, QString& written)
{
    const QString keyPath = jsonChildPath(path, key);
    const QString expected =
        (key == u"url" ? QStringLiteral("an %1 URL") : QStringLiteral("a %1 URL"))
            .arg(schemes.join(QStringLiteral(" or ")));
    const auto text = string(object, key, path, expected, required);
    if (!text)
        return std::nullopt;
    written = *text;
    const auto portOutOfRange = [&](const QString& url) {
        const auto port = unusablePort(url);
        if (port)
            error(keyPath, QStringLiteral("port %1 is out of range (1–65535)").arg(*port));
        return port.has_value();
    };
    const auto expanded = expand(*text, keyPath);
    // A port written out is judged even while a variable elsewhere in the URL is not set.
    if (!expanded) {
        portOutOfRange(*text);
        return std::nullopt;
    }
    if (portOutOfRange(*expanded))
        return std::nullopt;
    const QUrl url(*expanded, QUrl::StrictMode);
    const bool known = url.isValid() && schemes.contains(url.scheme());
    if (!known || url.host().isEmpty()) {
        // Quote what the user wrote, with anything that looks like a key hidden.
        error(keyPath, QStringLiteral("expected %1%2, got %3")
                           .arg(expected, known ? QStringLiteral(" with a host") : QString(),
                                quotedForMessage(redactedUrlText(*text))));
        return std::nullopt;
    }
    return url;
}

void Validator::roles(const QJsonObject& object, const QString& path, NodeConfig& node)
{
    const QString key = QStringLiteral("roles");
    const QString keyPath = jsonChildPath(path, key);
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return;
    const QStringList names = nodeRoleNames(allNodeRoles);
    if (!value.isArray() || value.toArray().isEmpty()) {
        error(keyPath,
              QStringLiteral("expected a non-empty array of roles (%1), got %2; leave "
                             "\"roles\" out for all four")
                  .arg(quotedList(names),
                       value.isArray() ? QStringLiteral("an empty array") : describe(value)));
        return;
    }
    NodeRoles roles;
    const QJsonArray array = value.toArray();
    bool valid = true;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString rolePath = jsonItemPath(keyPath, i);
        const QString roleExpected = QStringLiteral("one of ") + quotedList(names);
        if (!array.at(i).isString()) {
            wrongType(rolePath, roleExpected, array.at(i));
            valid = false;
            continue;
        }
        const QString text = array.at(i).toString();
        const auto it = std::find_if(nodeRoleOrder.cbegin(), nodeRoleOrder.cend(),
                                     [&](NodeRole role) { return nodeRoleName(role) == text; });
        if (it == nodeRoleOrder.cend()) {
            error(rolePath,
                  QStringLiteral("expected %1, got %2%3")
                      .arg(roleExpected, quotedForMessage(text), didYouMean(text, names)));
            valid = false;
        } else if (roles.testFlag(*it)) {
            error(rolePath, QStringLiteral("role %1 is listed twice").arg(quotedForMessage(text)));
            valid = false;
        } else {
            roles |= *it;
        }
    }
    if (valid)
        node.roles = roles;
}

void Validator::headers(const QJsonObject& object, const QString& path, NodeConfig& node)
{
    const QString key = QStringLiteral("headers");
    const QString keyPath = jsonChildPath(path, key);
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return;
    if (!value.isObject()) {
        wrongType(keyPath, QStringLiteral("an object of header names to string values"), value);
        return;
    }
    const QJsonObject headers = value.toObject();
    QMap<QString, QString> seen; // lower-case name -> name as written
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        const QString headerPath = jsonChildPath(keyPath, it.key());
        if (!isHttpToken(it.key())) {
            error(headerPath, QStringLiteral("expected an HTTP header name (letters, digits and "
                                             "!#$%&'*+-.^_`|~), got %1")
                                  .arg(quotedForMessage(it.key())));
            continue;
        }
        const QString folded = it.key().toLower();
        if (seen.contains(folded)) {
            error(headerPath, QStringLiteral("duplicate header (also given as %1; header names "
                                             "ignore case)")
                                  .arg(quotedForMessage(seen.value(folded))));
            continue;
        }
        seen.insert(folded, it.key());
        if (!it.value().isString()) {
            wrongType(headerPath, QStringLiteral("a string"), it.value());
            continue;
        }
        HttpHeader header;
        header.name = it.key().toLatin1();
        header.valueTemplate = it.value().toString();
        if (const auto expanded = expand(header.valueTemplate, headerPath)) {
            static const QRegularExpression lineBreak(QStringLiteral("[\\r\\n\\x00]"));
            if (expanded->contains(lineBreak)) {
                error(headerPath, QStringLiteral("expected a header value on one line, got a "
                                                 "value with a line break or NUL in it"));
                continue;
            }
            header.value = expanded->toUtf8();
        }
        node.headers.append(std::move(header));
    }
}

} // namespace

ConfigValidation validateConfig(const QJsonObject& root, const QString& sourceName,
                                const QByteArray& json, const JsonSourceMap& sourceMap,
                                const QProcessEnvironment& env, MissingVariables missingVariables)
{
    Validator validator(sourceName, json, sourceMap, env, missingVariables);
    Config config = validator.root(root);
    return {std::move(config), validator.errors()};
}

} // namespace switchyard
