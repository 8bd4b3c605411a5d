#include "eventtext.h"

namespace switchyard::eventtext {

namespace {

constexpr qsizetype shortHead = 6;
constexpr qsizetype shortTail = 4;

} // namespace

QString severityWord(IncidentEvent::Severity severity)
{
    switch (severity) {
    case IncidentEvent::Severity::Info:
        return QStringLiteral("Info");
    case IncidentEvent::Severity::Warning:
        return QStringLiteral("Warning");
    case IncidentEvent::Severity::Critical:
        return QStringLiteral("Critical");
    }
    Q_UNREACHABLE();
}

QString severityIconName(IncidentEvent::Severity severity)
{
    return QStringLiteral("severity-") + severityKey(severity);
}

QString kindWords(const QString& kindKey)
{
    if (kindKey == eventKindKey(IncidentEvent::Kind::ConfigRejected))
        return QStringLiteral("Configuration rejected");
    QString words = kindKey;
    words.replace(u'-', u' ');
    if (!words.isEmpty())
        words[0] = words[0].toUpper();
    return words;
}

QString shortTxId(const QString& txId)
{
    if (txId.size() <= shortHead + shortTail + 2)
        return txId;
    return txId.left(shortHead) + u'…' + txId.right(shortTail);
}

} // namespace switchyard::eventtext
