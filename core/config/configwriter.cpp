#include "configwriter.h"

#include "config/configloader.h"
#include "config/envtemplate.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QSaveFile>

namespace switchyard {

namespace {

// QJsonObject sorts keys; a hand-edited file reads better with "name" first, so members are
// written in a fixed order.
class PrettyJsonWriter
{
public:
    void beginObject() { open(u'{'); }
    void endObject() { close(u'}'); }
    void beginArray() { open(u'['); }
    void endArray() { close(u']'); }

    void key(const QString& name)
    {
        separate();
        m_text += encode(QJsonValue(name)) + QStringLiteral(": ");
        m_afterKey = true;
    }
    void value(const QJsonValue& scalar)
    {
        separate();
        m_text += encode(scalar);
    }
    void member(const QString& name, const QJsonValue& scalar)
    {
        key(name);
        value(scalar);
    }
    // Short lists of words (roles) stay on one line.
    void inlineArray(const QString& name, const QStringList& items)
    {
        key(name);
        separate();
        QStringList encoded;
        for (const QString& item : items)
            encoded << encode(QJsonValue(item));
        m_text += u'[' + encoded.join(QStringLiteral(", ")) + u']';
    }

    QByteArray text() const { return m_text.toUtf8() + '\n'; }

private:
    static QString encode(const QJsonValue& scalar)
    {
        const QByteArray array = QJsonDocument(QJsonArray{scalar}).toJson(QJsonDocument::Compact);
        return QString::fromUtf8(array.mid(1, array.size() - 2));
    }
    void separate()
    {
        if (std::exchange(m_afterKey, false) || m_first.isEmpty())
            return;
        if (!std::exchange(m_first.last(), false))
            m_text += u',';
        newline();
    }
    void newline() { m_text += u'\n' + QString(m_first.size() * 2, u' '); }
    void open(QChar bracket)
    {
        separate();
        m_text += bracket;
        m_first.append(true);
    }
    void close(QChar bracket)
    {
        const bool empty = m_first.takeLast();
        if (!empty)
            newline();
        m_text += bracket;
    }

    QString m_text;
    QList<bool> m_first; // per open container: nothing written in it yet
    bool m_afterKey = false;
};

void writeNode(PrettyJsonWriter& json, const NodeConfig& node)
{
    json.beginObject();
    json.member(QStringLiteral("name"), node.name);
    json.member(QStringLiteral("url"),
                node.urlTemplate.isEmpty() && !node.url.isEmpty()
                    ? EnvTemplate::escape(node.url.toString(QUrl::FullyEncoded))
                    : node.urlTemplate);
    if (!node.wsUrlTemplate.isEmpty() || !node.wsUrl.isEmpty())
        json.member(QStringLiteral("wsUrl"),
                    node.wsUrlTemplate.isEmpty()
                        ? EnvTemplate::escape(node.wsUrl.toString(QUrl::FullyEncoded))
                        : node.wsUrlTemplate);
    json.inlineArray(QStringLiteral("roles"), nodeRoleNames(node.roles));
    if (!node.headers.isEmpty()) {
        json.key(QStringLiteral("headers"));
        json.beginObject();
        for (const HttpHeader& header : node.headers) {
            json.member(QString::fromLatin1(header.name),
                        header.valueTemplate.isEmpty()
                            ? EnvTemplate::escape(QString::fromUtf8(header.value))
                            : header.valueTemplate);
        }
        json.endObject();
    }
    if (!node.caFile.isEmpty())
        json.member(QStringLiteral("caFile"), node.caFile);
    if (node.cleartextHttp2)
        json.member(QStringLiteral("cleartextHttp2"), true);
    json.endObject();
}

void writeNetwork(PrettyJsonWriter& json, const NetworkConfig& network)
{
    json.beginObject();
    json.member(QStringLiteral("name"), network.name);
    json.member(QStringLiteral("family"), familyName(network.family));
    switch (network.family) {
    case ChainFamily::Solana:
        json.member(QStringLiteral("genesisHash"), network.genesisHash);
        json.member(QStringLiteral("commitment"), network.commitment);
        break;
    case ChainFamily::Evm:
        json.member(QStringLiteral("chainId"), qint64(network.chainId));
        json.member(QStringLiteral("checkSyncing"), network.checkSyncing);
        break;
    }
    json.member(QStringLiteral("warnLag"), network.warnLag);
    json.member(QStringLiteral("maxLag"), network.maxLag);
    if (!network.explorer.isEmpty())
        json.member(QStringLiteral("explorer"), network.explorer);
    if (!network.caFile.isEmpty())
        json.member(QStringLiteral("caFile"), network.caFile);
    json.key(QStringLiteral("nodes"));
    json.beginArray();
    for (const NodeConfig& node : network.nodes)
        writeNode(json, node);
    json.endArray();
    json.endObject();
}

// Only rules that differ from their defaults, so a file that never set them stays as it was.
void writeAlerts(PrettyJsonWriter& json, const AlertRules& rules)
{
    const AlertRules defaults;
    json.key(QStringLiteral("alerts"));
    json.beginObject();
    if (rules.muteMinutes != defaults.muteMinutes)
        json.member(QStringLiteral("muteMinutes"), rules.muteMinutes);
    for (const QString& key : alertRuleKeys()) {
        const AlertRule& rule = *alertRule(rules, key);
        const AlertRule& standard = *alertRule(defaults, key);
        if (rule == standard)
            continue;
        json.key(key);
        json.beginObject();
        json.member(QStringLiteral("enabled"), rule.enabled);
        json.member(QStringLiteral("cooldownS"), rule.cooldownS);
        const QStringList parameters = alertRuleParameters(key);
        if (parameters.contains(QLatin1String("afterS")))
            json.member(QStringLiteral("afterS"), rule.afterS);
        if (parameters.contains(QLatin1String("blocksLeft")))
            json.member(QStringLiteral("blocksLeft"), rule.blocksLeft);
        json.endObject();
    }
    json.endObject();
}

} // namespace

QByteArray configToJson(const Config& config)
{
    PrettyJsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("networks"));
    json.beginArray();
    for (const NetworkConfig& network : config.networks)
        writeNetwork(json, network);
    json.endArray();
    json.key(QStringLiteral("probe"));
    json.beginObject();
    json.member(QStringLiteral("intervalMs"), config.probe.intervalMs);
    json.member(QStringLiteral("timeoutMs"), config.probe.timeoutMs);
    json.member(QStringLiteral("recoveryIntervalMs"), config.probe.recoveryIntervalMs);
    json.member(QStringLiteral("probationProbes"), config.probe.probationProbes);
    if (config.probe.pushSilentMs > 0)
        json.member(QStringLiteral("pushSilentMs"), config.probe.pushSilentMs);
    if (config.probe.agreementIntervalMs != ProbeConfig().agreementIntervalMs)
        json.member(QStringLiteral("agreementIntervalMs"), config.probe.agreementIntervalMs);
    json.endObject();
    json.member(QStringLiteral("reconfigureGraceMs"), config.reconfigureGraceMs);
    if (config.alerts != AlertRules())
        writeAlerts(json, config.alerts);
    if (!config.db.isEmpty())
        json.member(QStringLiteral("db"), config.db);
    if (config.probeFromThisDesk)
        json.member(QStringLiteral("probeFromThisDesk"), true);
    json.endObject();
    return json.text();
}

ConfigSaveResult saveConfigFile(const Config& config, const QString& path)
{
    const QByteArray text = configToJson(config);
    // The variables may be set only where the app runs, so only their absence is forgiven.
    const ConfigResult check =
        loadConfigText(text, path, QProcessEnvironment(), MissingVariables::AreIgnored);
    if (!check.ok())
        return {check.errors()};

    const auto failure = [&](const QString& message) {
        return ConfigSaveResult{{{path, 0, 0, QString(), message}}};
    };
    const QDir directory = QFileInfo(path).absoluteDir();
    if (!directory.exists() && !directory.mkpath(QStringLiteral(".")))
        return failure(QStringLiteral("cannot create the directory ") + directory.path());

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return failure(QStringLiteral("cannot write: ") + file.errorString());
    // Applies to the temporary file, so the keys are never readable by others, not even
    // between the write and the rename.
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        file.cancelWriting();
        return failure(QStringLiteral("cannot make the file private: ") + file.errorString());
    }
    if (file.write(text) != text.size()) {
        file.cancelWriting();
        return failure(QStringLiteral("cannot write: ") + file.errorString());
    }
    if (!file.commit())
        return failure(QStringLiteral("cannot write: ") + file.errorString());
    return {};
}

} // namespace switchyard
