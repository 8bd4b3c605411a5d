#include "config/configproblems.h"

#include "config/configfields.h"
#include "config/configloader.h"
#include "config/configwriter.h"

#include <QRegularExpression>
#include <algorithm>

namespace switchyard {

namespace {

QString counted(qsizetype count, const QString& one, const QString& many)
{
    return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

// `what` “name”, with its position where the name alone does not say which one.
template <typename Item>
QString named(const QString& what, const QList<Item>& items, int index)
{
    const QString position = QStringLiteral("#%1").arg(index + 1);
    if (index < 0 || index >= items.size() || items[index].name.isEmpty())
        return QStringLiteral("%1 %2").arg(what, position);
    const QString name = items[index].name;
    const auto sameName = [&](const Item& item) {
        return item.name.compare(name, Qt::CaseInsensitive) == 0;
    };
    const QString label = QStringLiteral("%1 “%2”").arg(what, name);
    return std::count_if(items.cbegin(), items.cend(), sameName) > 1
               ? QStringLiteral("%1 (%2)").arg(label, position)
               : label;
}

QString networkLabel(const Config& config, int network, const QString& what)
{
    return named(what, config.networks, network);
}

QString nodeLabel(const Config& config, int network, int node)
{
    if (network < 0 || network >= config.networks.size())
        return QStringLiteral("node #%1").arg(node + 1);
    return named(QStringLiteral("node"), config.networks[network].nodes, node);
}

// The loader points at another network or node by its path ("also used by networks[0]"):
// an operator knows them by name.
QString withNames(const QString& message, const Config& config, int network)
{
    static const QRegularExpression path(
        QStringLiteral(R"(\bnetworks\[(\d+)\](?:\.nodes\[(\d+)\])?)"));
    QString text;
    qsizetype last = 0;
    for (const QRegularExpressionMatch& match : path.globalMatch(message)) {
        text += message.mid(last, match.capturedStart() - last);
        const int other = match.captured(1).toInt();
        if (match.hasCaptured(2) && !match.captured(2).isEmpty()) {
            const QString node = nodeLabel(config, other, match.captured(2).toInt());
            text += other == network
                        ? node
                        : QStringLiteral("%1 of %2")
                              .arg(node, networkLabel(config, other, QStringLiteral("network")));
        } else {
            text += networkLabel(config, other, QStringLiteral("network"));
        }
        last = match.capturedEnd();
    }
    return text + message.mid(last);
}

QString fieldLabel(const QString& jsonPath, const QString& field)
{
    const ConfigField* known = configField(configFieldKey(jsonPath));
    return known ? known->label : field;
}

} // namespace

ErrorLocation locateError(const QString& jsonPath)
{
    static const QRegularExpression pattern(QStringLiteral(
        R"(^networks\[(\d+)\](?:\.nodes\[(\d+)\])?(?:\.([A-Za-z_][A-Za-z0-9_-]*))?)"));
    ErrorLocation location;
    const QRegularExpressionMatch match = pattern.match(jsonPath);
    if (!match.hasMatch()) {
        location.field = jsonPath;
        return location;
    }
    location.network = match.captured(1).toInt();
    if (match.hasCaptured(2) && !match.captured(2).isEmpty())
        location.node = match.captured(2).toInt();
    location.field = match.captured(3);
    // "networks[0].nodes" (none, or not a list) is about the network's node list.
    if (location.node < 0 && location.field.isEmpty() &&
        jsonPath.startsWith(match.captured(0) + QStringLiteral(".nodes")))
        location.field = QStringLiteral("nodes");
    return location;
}

QString describeError(const ConfigError& error, const Config& config)
{
    const ErrorLocation location = locateError(error.jsonPath);
    QStringList where;
    if (location.network >= 0) {
        where << networkLabel(config, location.network, QStringLiteral("Network"));
        if (location.node >= 0)
            where << nodeLabel(config, location.network, location.node);
        if (!location.field.isEmpty())
            where << fieldLabel(error.jsonPath, location.field);
    } else if (!error.jsonPath.isEmpty()) {
        const ConfigField* known = configField(configFieldKey(error.jsonPath));
        where << (known ? QStringLiteral("Settings › ") + known->label : error.jsonPath);
    }
    const QString message = withNames(error.message, config, location.network);
    return where.isEmpty()
               ? message
               : QString(where.join(QStringLiteral(" › ")) + QStringLiteral(": ") + message);
}

ConfigProblem describeProblem(const ConfigError& error, const Config& config, bool blocksSave)
{
    const ErrorLocation location = locateError(error.jsonPath);
    return {error, location, describeError(error, config),
            withNames(error.message, config, location.network), blocksSave};
}

EditorCheck checkEditedConfig(const Config& config, EditTarget target,
                              const QProcessEnvironment& env)
{
    // The same rules as loading the file. A variable not set here is listed too (the loader
    // here would refuse the file): it stops an apply to the demo, but a file may be saved for
    // an environment that sets it.
    const QByteArray json = configToJson(config);
    const QString source = QStringLiteral("editor");
    const ConfigResult shape = loadConfigText(json, source, env, MissingVariables::AreIgnored);
    const ConfigResult here = loadConfigText(json, source, env);

    EditorCheck check;
    for (const ConfigError& error : here.errors()) {
        const bool ofShape = shape.errors().contains(error);
        ConfigProblem problem =
            describeProblem(error, config, ofShape || target == EditTarget::Session);
        check.blocking += problem.blocksSave ? 1 : 0;
        check.problems.append(std::move(problem));
    }

    const bool file = target == EditTarget::File;
    const QString action = file ? QStringLiteral("saving") : QStringLiteral("applying");
    const qsizetype notSet = check.problems.size() - check.blocking;
    if (check.problems.isEmpty()) {
        check.level = CheckLevel::Ready;
        check.status = file ? QStringLiteral("No problems: ready to save")
                            : QStringLiteral("No problems: ready to apply");
    } else if (check.blocking > 0) {
        check.level = CheckLevel::Blocked;
        const QString toFix =
            counted(check.blocking, QStringLiteral("problem"), QStringLiteral("problems"));
        check.status = QStringLiteral("%1 to fix before %2").arg(toFix, action);
        if (notSet > 0)
            check.status +=
                QStringLiteral("; also %1 not set here")
                    .arg(counted(notSet, QStringLiteral("variable"), QStringLiteral("variables")));
        check.saveReason = QStringLiteral("Fix the %1 listed below before %2").arg(toFix, action);
    } else {
        check.level = CheckLevel::Warning;
        check.status =
            QStringLiteral("%1 not set here: the file can be saved, but it is not applied until "
                           "%2 set here")
                .arg(counted(notSet, QStringLiteral("variable"), QStringLiteral("variables")),
                     notSet == 1 ? QStringLiteral("it is") : QStringLiteral("they are"));
    }
    return check;
}

} // namespace switchyard
