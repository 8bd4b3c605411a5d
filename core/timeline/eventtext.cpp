#include "eventtext.h"

#include <algorithm>

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

QString kindsLabel(const QStringList& chosenKeys, const QStringList& allKeys)
{
    QStringList chosen = chosenKeys;
    chosen.removeDuplicates();
    if (chosen.isEmpty() || std::all_of(allKeys.cbegin(), allKeys.cend(),
                                        [&](const QString& key) { return chosen.contains(key); }))
        return QStringLiteral("All kinds");
    if (chosen.size() > 2)
        return QStringLiteral("%1 kinds").arg(chosen.size());
    QStringList words;
    for (const QString& key : std::as_const(allKeys)) // in the menu's order, whatever the clicks
        if (chosen.contains(key))
            words << kindWords(key);
    for (const QString& key : std::as_const(chosen)) // kinds this version does not list
        if (!allKeys.contains(key))
            words << kindWords(key);
    return words.join(QStringLiteral(", "));
}

QString shortTxId(const QString& txId)
{
    if (txId.size() <= shortHead + shortTail + 2)
        return txId;
    return txId.left(shortHead) + u'…' + txId.right(shortTail);
}

} // namespace switchyard::eventtext
