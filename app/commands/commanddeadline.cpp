#include "commanddeadline.h"

#include <QCommandLineParser>
#include <cmath>

namespace switchyard::cli {

namespace {

constexpr double defaultSeconds = 8;
// A day: past that the number is a mistake, and milliseconds of it still fit an int timer.
constexpr double maxSeconds = 24 * 60 * 60;

} // namespace

QCommandLineOption commandTimeoutOption()
{
    return QCommandLineOption(
        QStringLiteral("timeout"),
        QStringLiteral("Answer within this many seconds whatever the nodes do; nodes without an "
                       "answer by then are reported as such. Default: %1.")
            .arg(defaultSeconds),
        QStringLiteral("SECONDS"));
}

std::optional<CommandDeadline> commandDeadline(const QCommandLineParser& parser,
                                               const QCommandLineOption& option, QString* error)
{
    double seconds = defaultSeconds;
    if (parser.isSet(option)) {
        bool isNumber = false;
        seconds = parser.value(option).toDouble(&isNumber);
        if (!isNumber || !std::isfinite(seconds) || seconds <= 0 || seconds > maxSeconds) {
            *error = QStringLiteral("--timeout expects a number of seconds above 0 and up to %1, "
                                    "got '%2'")
                         .arg(maxSeconds)
                         .arg(parser.value(option));
            return std::nullopt;
        }
    }
    const qint64 totalMs = qint64(std::ceil(seconds * 1000));
    return CommandDeadline{QDeadlineTimer(totalMs, Qt::PreciseTimer), totalMs};
}

QString CommandDeadline::text() const
{
    return QString::number(double(totalMs) / 1000.0) + QStringLiteral(" s");
}

} // namespace switchyard::cli
