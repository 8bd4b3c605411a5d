#include "claimholder.h"

#include <QCoreApplication>
#include <QFile>
#include <QList>
#include <QSysInfo>
#include <optional>

namespace switchyard::tracking {

namespace {

struct Holder
{
    qint64 pid = 0;
    QString start;
    QString boot;
    QString host;
    qint64 session = 0;
};

QString thisBoot()
{
    static const QString boot = [] {
        QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
        return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).trimmed()
                                              : QString();
    }();
    return boot;
}

// This machine's name as a holder names it (fields are separated by spaces).
QString thisHost()
{
    static const QString host =
        QSysInfo::machineHostName().replace(QLatin1Char(' '), QLatin1Char('_'));
    return host;
}

struct ProcessStat
{
    char state = 0;
    QString start; // clock ticks after boot
};

// /proc/PID/stat: the name in parentheses may hold spaces, so fields count from the last ')';
// the state is field 3 and the start time field 22.
std::optional<ProcessStat> processStat(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray text = file.readAll();
    const qsizetype nameEnd = text.lastIndexOf(')');
    if (nameEnd < 0)
        return std::nullopt;
    const QList<QByteArray> fields = text.mid(nameEnd + 2).split(' ');
    if (fields.size() < 20 || fields[0].isEmpty())
        return std::nullopt;
    return ProcessStat{fields[0].at(0), QString::fromLatin1(fields[19])};
}

std::optional<Holder> parseHolder(const QString& text)
{
    Holder holder;
    for (const QString& part : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString key = part.section(QLatin1Char('='), 0, 0);
        const QString value = part.section(QLatin1Char('='), 1);
        if (key == QLatin1String("pid"))
            holder.pid = value.toLongLong();
        else if (key == QLatin1String("start"))
            holder.start = value;
        else if (key == QLatin1String("boot"))
            holder.boot = value;
        else if (key == QLatin1String("host"))
            holder.host = value;
        else if (key == QLatin1String("session"))
            holder.session = value.toLongLong();
    }
    if (holder.pid <= 0)
        return std::nullopt;
    return holder;
}

} // namespace

QString thisProcessAsHolder()
{
    static const QString holder = [] {
        const qint64 pid = QCoreApplication::applicationPid();
        const std::optional<ProcessStat> stat = processStat(pid);
        return QStringLiteral("pid=%1 start=%2 boot=%3")
            .arg(pid)
            .arg(stat ? stat->start : QString(), thisBoot());
    }();
    return holder;
}

HolderLiveness holderLiveness(const QString& text)
{
    if (text.isEmpty())
        return HolderLiveness::Ended;
    const std::optional<Holder> holder = parseHolder(text);
    if (!holder || holder->start.isEmpty() || holder->boot.isEmpty() || thisBoot().isEmpty())
        return HolderLiveness::Unknown;
    if (holder->boot != thisBoot())
        return HolderLiveness::Ended;
    const std::optional<ProcessStat> stat = processStat(holder->pid);
    // A zombie is dead: it only waits for its parent to read its exit status.
    if (!stat || stat->state == 'Z' || stat->state == 'X' || stat->start != holder->start)
        return HolderLiveness::Ended;
    return HolderLiveness::Running;
}

QString describeHolder(const QString& text)
{
    const std::optional<Holder> holder = parseHolder(text);
    if (!holder)
        return text.isEmpty() ? QStringLiteral("a process of an earlier Switchyard")
                              : QStringLiteral("a process (%1)").arg(text);
    if (!holder->host.isEmpty() && holder->host != thisHost())
        return QStringLiteral("process %1 on %2").arg(holder->pid).arg(holder->host);
    return QStringLiteral("process %1").arg(holder->pid);
}

QString sessionAsHolder(qint64 sessionPid)
{
    return QStringLiteral("session=%1 pid=%2 host=%3")
        .arg(sessionPid)
        .arg(QCoreApplication::applicationPid())
        .arg(thisHost());
}

std::optional<qint64> holderSession(const QString& text)
{
    const std::optional<Holder> holder = parseHolder(text);
    if (!holder || holder->session <= 0)
        return std::nullopt;
    return holder->session;
}

} // namespace switchyard::tracking
