#pragma once

// What every benchmark prints before its figures, so that they can be read in context: how it
// was built, how busy the shared machine was, and the versions of what it is compared against.

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QThread>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace switchyard::bench {

using Versions = std::initializer_list<std::pair<const char*, QString>>;

inline void printContext(Versions versions = {})
{
    const char* buildType = SWITCHYARD_BENCH_BUILD_TYPE;
    std::printf("build: %s, %s, Qt %s (built against %s)%s\n",
                *buildType ? buildType : "no CMAKE_BUILD_TYPE", SWITCHYARD_BENCH_COMPILER,
                qVersion(), QT_VERSION_STR,
                std::strcmp(buildType, "Release") == 0 ? "" : "  NOT RELEASE: not comparable");
    QFile loadavg(QStringLiteral("/proc/loadavg"));
    const QList<QByteArray> load = loadavg.open(QIODevice::ReadOnly)
                                       ? loadavg.readAll().split(' ')
                                       : QList<QByteArray>{"?", "?", "?"};
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    QByteArray cpu = "?";
    if (cpuinfo.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : cpuinfo.readAll().split('\n')) {
            if (line.startsWith("model name")) {
                cpu = line.mid(line.indexOf(':') + 1).trimmed();
                break;
            }
        }
    }
    std::printf("machine: %d cores (%s), load average %s %s %s (1, 5, 15 min)\n",
                QThread::idealThreadCount(), cpu.constData(), load.value(0).constData(),
                load.value(1).constData(), load.value(2).constData());
    for (const auto& [what, version] : versions)
        std::printf("%s: %s\n", what, qPrintable(version));
    std::fflush(stdout);
}

// One row of the table bench/floors/run.sh prints, on a line of its own that the script picks
// out: the measure, our figure, the floor or peer measured in the same run, our figure over
// theirs, the goal, and whether it was met.
inline void printFloorRow(const QString& measure, const QString& ours, const QString& floor,
                          double ratio, const QString& goal, bool met)
{
    std::printf("floor-row\t%s\t%s\t%s\t%.2f\t%s\t%s\n", qUtf8Printable(measure),
                qUtf8Printable(ours), qUtf8Printable(floor), ratio, qUtf8Printable(goal),
                met ? "met" : "NOT MET");
    std::fflush(stdout);
}

} // namespace switchyard::bench
