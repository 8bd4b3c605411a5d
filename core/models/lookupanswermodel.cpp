#include "lookupanswermodel.h"

#include "models/displaytext.h"

namespace switchyard {

QString lookupOutcomeIconName(const LookupAnswer& answer)
{
    using Outcome = LookupAnswer::Outcome;
    if (answer.fromDivergedNode)
        return QStringLiteral("state-diverged");
    switch (answer.outcome) {
    case Outcome::Found:
        return answer.executionFailed ? QStringLiteral("state-unhealthy")
               : answer.pendingInPool ? QStringLiteral("state-probation")
                                      : QStringLiteral("state-healthy");
    case Outcome::NotFound:
        return QStringLiteral("state-not-probed");
    case Outcome::RpcError:
        return QStringLiteral("error");
    case Outcome::TransportFailure:
        return QStringLiteral("state-lagging");
    case Outcome::NoNodeAvailable:
    case Outcome::NotAsked:
        return QStringLiteral("state-disabled");
    }
    Q_UNREACHABLE();
}

namespace {

bool wasAsked(const LookupAnswer& answer)
{
    return answer.outcome != LookupAnswer::Outcome::NoNodeAvailable &&
           answer.outcome != LookupAnswer::Outcome::NotAsked;
}

} // namespace

LookupAnswerModel::LookupAnswerModel(QObject* parent)
    : QAbstractTableModel(parent)
{}

int LookupAnswerModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_answers.size());
}

int LookupAnswerModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LookupAnswerModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LookupAnswer& answer = m_answers[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case Where:
            return answer.fromDivergedNode ? answer.where() + QStringLiteral(" (Diverged)")
                                           : answer.where();
        case Answer:
            return answer.fromDivergedNode ? QStringLiteral("another history: ") + answer.verdict()
                                           : answer.verdict();
        case View:
            return answer.viewHeight ? QVariant(QStringLiteral("%1 %2")
                                                    .arg(answer.heightUnit())
                                                    .arg(*answer.viewHeight))
                                     : QVariant();
        case Latency:
            return wasAsked(answer) ? QVariant(display::milliseconds(answer.latencyMs))
                                    : QVariant();
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        return answer.displayUrl.isEmpty() ? answer.describe()
                                           : answer.describe() + u'\n' + answer.displayUrl;
    case SortRole:
        return index.column() == View      ? QVariant(answer.viewHeight.value_or(-1))
               : index.column() == Latency ? QVariant(answer.latencyMs)
                                           : data(index, Qt::DisplayRole);
    case NetworkRole:
        return answer.network;
    case OutcomeRole:
        return lookupOutcomeKey(answer.outcome);
    case IconRole:
        return index.column() == Answer ? QVariant(lookupOutcomeIconName(answer)) : QVariant();
    default:
        return {};
    }
}

QVariant LookupAnswerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Where:
        return tr("Network / node");
    case Answer:
        return tr("Answer");
    case View:
        return tr("Node's view");
    case Latency:
        return tr("Latency");
    case ColumnCount:
        break;
    }
    return {};
}

QString LookupAnswerModel::summary() const
{
    int asked = 0;
    int found = 0;
    for (const LookupAnswer& answer : m_answers) {
        if (!wasAsked(answer))
            continue;
        ++asked;
        if (answer.outcome == LookupAnswer::Outcome::Found)
            ++found;
    }
    if (asked == 0)
        return m_answers.isEmpty() ? tr("Asking…") : tr("No node available to ask");
    if (found == 0)
        return tr("Not found at any node's view (%1 asked)")
            .arg(display::counted(asked, tr("node"), tr("nodes")));
    return tr("Found at %1 of %2 asked")
        .arg(found)
        .arg(display::counted(asked, tr("node"), tr("nodes")));
}

void LookupAnswerModel::clear()
{
    beginResetModel();
    m_answers.clear();
    endResetModel();
}

void LookupAnswerModel::add(const LookupAnswer& answer)
{
    beginInsertRows({}, int(m_answers.size()), int(m_answers.size()));
    m_answers.append(answer);
    endInsertRows();
}

} // namespace switchyard
