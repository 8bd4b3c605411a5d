#pragma once

#include <QCommandLineOption>
#include <QDeadlineTimer>
#include <optional>

class QCommandLineParser;

namespace switchyard::cli {

// `--timeout SECONDS`: one deadline for a whole command, for callers that must have an answer
// in time (a monitoring system kills a plugin that runs past its own timeout, usually 10 s).
QCommandLineOption commandTimeoutOption();

struct CommandDeadline
{
    QDeadlineTimer timer;
    qint64 totalMs = 0;

    QString text() const; // "8 s", "0.5 s": the whole of it, for messages
};

// The deadline the option sets, counted from now (8 s when it is not given); nullopt with
// `error` set when its value is no number of seconds above 0.
std::optional<CommandDeadline> commandDeadline(const QCommandLineParser& parser,
                                               const QCommandLineOption& option, QString* error);

} // namespace switchyard::cli
