#include "displaytext.h"

#include "chain/familyrules.h"

#include <QDateTime>
#include <QLocale>
#include <QStringList>

namespace switchyard::display {

QString dash()
{
    return QStringLiteral("—");
}

QString heightUnit(ChainFamily family, qint64 count)
{
    const QString unit = chain::familyRules(family).heightUnit();
    return count == 1 ? unit : unit + QLatin1Char('s');
}

QString count(qint64 value)
{
    return QLocale().toString(value);
}

QString counted(qint64 value, const QString& singular, const QString& plural)
{
    return count(value) + u' ' + (value == 1 ? singular : plural);
}

QString lag(ChainFamily family, qint64 lag)
{
    return count(lag) + u' ' + heightUnit(family, lag);
}

QString milliseconds(qint64 ms)
{
    // Latencies are whole milliseconds cut down (QElapsedTimer::elapsed): 0 is an answer within
    // the first millisecond, not an instant one.
    return ms < 1 ? QStringLiteral("< 1 ms") : count(ms) + QStringLiteral(" ms");
}

QString percent(double fraction)
{
    return QString::number(qRound(fraction * 100.0)) + QStringLiteral(" %");
}

QString duration(qint64 ms)
{
    const qint64 seconds = std::max<qint64>(0, ms / 1000);
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(seconds);
    const qint64 minutes = seconds / 60;
    if (minutes < 60)
        return QStringLiteral("%1 min").arg(minutes);
    const qint64 hours = minutes / 60;
    if (hours < 24)
        return minutes % 60 == 0 ? QStringLiteral("%1 h").arg(hours)
                                 : QStringLiteral("%1 h %2 min").arg(hours).arg(minutes % 60);
    return hours % 24 == 0 ? QStringLiteral("%1 d").arg(hours / 24)
                           : QStringLiteral("%1 d %2 h").arg(hours / 24).arg(hours % 24);
}

QString age(qint64 ms)
{
    return duration(ms) + QStringLiteral(" ago");
}

QString timeAndAge(qint64 ms, qint64 nowMs)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    const bool today = at.date() == QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC).date();
    const QString when = at.toString(today ? QStringLiteral("HH:mm:ss 'UTC'")
                                           : QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    return QStringLiteral("%1 (%2)").arg(when, age(nowMs - ms));
}

QString roles(NodeRoles roles)
{
    if (roles == allNodeRoles)
        return QStringLiteral("all");
    QStringList names;
    const std::pair<NodeRole, const char*> all[] = {{NodeRole::Read, "read"},
                                                    {NodeRole::Build, "build"},
                                                    {NodeRole::Send, "send"},
                                                    {NodeRole::Status, "status"}};
    for (const auto& [role, name] : all)
        if (roles.testFlag(role))
            names << QLatin1String(name);
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

QString tlsProblem(TlsProblem problem)
{
    switch (problem) {
    case TlsProblem::UnknownAuthority:
        return QStringLiteral("TLS: unknown CA");
    case TlsProblem::WrongHost:
        return QStringLiteral("TLS: wrong host");
    case TlsProblem::Expired:
        return QStringLiteral("TLS: expired");
    case TlsProblem::Other:
        return QStringLiteral("TLS: handshake");
    }
    Q_UNREACHABLE();
}

QString transport(const QString& protocolKey, PushState push)
{
    const QString protocol = protocolKey == u"h2"         ? QStringLiteral("h2")
                             : protocolKey == u"http/1.1" ? QStringLiteral("h1")
                                                          : dash();
    switch (push) {
    case PushState::Off:
        return protocol;
    case PushState::Subscribed:
        return protocol + QStringLiteral(" · push");
    case PushState::Down:
        return protocol + QStringLiteral(" · push ✕");
    }
    Q_UNREACHABLE();
}

QString failureCause(FailureCause cause)
{
    switch (cause) {
    case FailureCause::Transport:
        return QStringLiteral("Transport");
    case FailureCause::Timeout:
        return QStringLiteral("Timeout");
    case FailureCause::TooManyRequests:
        return QStringLiteral("HTTP 429");
    case FailureCause::ServerError:
        return QStringLiteral("HTTP 5xx");
    case FailureCause::ClientError:
        return QStringLiteral("HTTP 4xx");
    case FailureCause::OtherHttp:
        return QStringLiteral("HTTP other");
    case FailureCause::Malformed:
        return QStringLiteral("Malformed");
    case FailureCause::NodeBehind:
        return QStringLiteral("Behind");
    case FailureCause::Stale:
        return QStringLiteral("Stale head");
    case FailureCause::ProbeRejected:
        return QStringLiteral("RPC error");
    case FailureCause::PushSilent:
        return QStringLiteral("Push silent");
    case FailureCause::Diverged:
        return QStringLiteral("Diverged");
    }
    Q_UNREACHABLE();
}

} // namespace switchyard::display
