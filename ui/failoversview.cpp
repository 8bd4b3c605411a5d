#include "failoversview.h"

#include "appearance.h"
#include "charts/failoverchart.h"
#include "columnroom.h"
#include "emptystate.h"
#include "models/failovertablemodel.h"
#include "networkfilterproxy.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

const qint64 windows[] = {FailoverTableModel::fiveMinutesMs, FailoverTableModel::oneHourMs,
                          FailoverTableModel::oneDayMs};

} // namespace

FailoversView::FailoversView(FailoverTableModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_tableProxy(new NetworkFilterProxy(this))
    , m_windows(new QButtonGroup(this))
    , m_summary(new QLabel(this))
    , m_pages(new QStackedWidget(this))
    , m_empty(new EmptyState(QString(), QString(), this))
    , m_table(new QTableView(this))
{
    m_tableProxy->setSourceModel(m_model);
    m_chart = new charts::FailoverChart(m_tableProxy, this);

    auto* windowRow = new QHBoxLayout;
    auto* windowLabel = new QLabel(tr("Window"), this);
    windowLabel->setFont(withPointSize(font(), headerPointSize, true));
    windowRow->addWidget(windowLabel);
    for (const qint64 window : windows) {
        auto* button = new QPushButton(FailoverTableModel::windowLabel(window), this);
        button->setCheckable(true);
        button->setFont(withPointSize(font(), headerPointSize));
        button->setMinimumHeight(button->fontMetrics().height() * 2);
        button->setObjectName(QStringLiteral("window%1").arg(window));
        m_windows->addButton(button);
        windowRow->addWidget(button);
        connect(button, &QPushButton::toggled, this, [this, window](bool checked) {
            if (!checked)
                return;
            m_model->setWindowMs(window);
            updateSummary();
            Q_EMIT windowChanged(window);
        });
    }
    windowRow->addSpacing(24);
    m_summary->setFont(withPointSize(font(), headerPointSize));
    m_summary->setObjectName(QStringLiteral("failoverSummary"));
    windowRow->addWidget(m_summary, 1);

    m_table->setObjectName(QStringLiteral("failoverTable"));
    m_table->setModel(m_tableProxy);
    makeReadable(m_table);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FailoverTableModel::Failovers, Qt::DescendingOrder);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_fit = new columns::Refitter(m_table, [this] { fitColumns(); });
    const auto refit = [this] {
        m_fit->schedule();
    };
    connect(m_tableProxy, &QAbstractItemModel::modelReset, this, refit);
    connect(m_tableProxy, &QAbstractItemModel::layoutChanged, this, refit);
    connect(m_tableProxy, &QAbstractItemModel::rowsInserted, this, refit);
    connect(m_tableProxy, &QAbstractItemModel::dataChanged, this, refit);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    m_pages->addWidget(m_empty);
    m_pages->addWidget(splitter);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 0);
    layout->addLayout(windowRow);
    layout->addWidget(m_pages, 1);

    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_tableProxy, signal, this, &FailoversView::updateSummary);
    connect(m_tableProxy, &QAbstractItemModel::modelReset, this, &FailoversView::updateSummary);
    connect(m_tableProxy, &QAbstractItemModel::dataChanged, this, &FailoversView::updateSummary);
    connect(m_tableProxy, &QAbstractItemModel::layoutChanged, this, &FailoversView::updateSummary);
    setWindowMs(m_model->windowMs());
    updateSummary();
}

void FailoversView::setNetwork(const QString& network)
{
    m_tableProxy->setNetwork(network);
    m_fit->schedule();
    m_chart->setNetworkInLabels(network.isEmpty());
    updateSummary();
}

void FailoversView::fitColumns()
{
    const QFontMetrics metrics(m_table->font());
    QHeaderView* header = m_table->horizontalHeader();
    const int padding = 2 * cellPadding + 4;
    QList<columns::Need> needs(FailoverTableModel::ColumnCount);
    // A title's width, with room for the sort arrow: any column may become the sorted one.
    const QFontMetrics titleMetrics(header->font());
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int titleRoom = 2 * cellPadding + 3 * margin +
                          header->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
    for (int column = 0; column < FailoverTableModel::ColumnCount; ++column) {
        int wanted =
            titleMetrics.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) +
            titleRoom;
        bool allZero = true;
        for (int row = 0; row < m_tableProxy->rowCount(); ++row) {
            const QModelIndex index = m_tableProxy->index(row, column);
            wanted = std::max(wanted, metrics.horizontalAdvance(index.data().toString()) + padding);
            allZero = allZero && index.data().toInt() == 0;
        }
        needs[column] = {wanted, wanted, -1};
        // On a laptop screen a cause no call failed with in the window gives way first (the
        // rarer causes, to the right, before the others): its zeros say nothing that the
        // summary line and the chart's legend do not.
        if (column >= FailoverTableModel::firstCauseColumn &&
            column <= FailoverTableModel::lastCauseColumn && allZero)
            needs[column] = {wanted, 0, FailoverTableModel::lastCauseColumn - column};
    }
    // The nodes moved off: elided before the network goes, the tooltip holds every one.
    needs[FailoverTableModel::MovedOff].floor =
        std::min(needs[FailoverTableModel::MovedOff].wanted,
                 metrics.horizontalAdvance(QStringLiteral("demo-evm-b ×9…")) + padding);
    needs[FailoverTableModel::MovedOff].yieldRank = FailoverTableModel::ColumnCount - 1;
    needs[FailoverTableModel::Network].floor =
        std::min(needs[FailoverTableModel::Network].wanted,
                 metrics.horizontalAdvance(QStringLiteral("solana-m…")) + padding);
    needs[FailoverTableModel::Network].yieldRank = FailoverTableModel::ColumnCount;
    // One network shown: its name on every row is no news.
    if (!m_tableProxy->network().isEmpty())
        needs[FailoverTableModel::Network] = {};
    // The method is what a row is about: it is never cut, and takes the spare width.
    columns::apply(header,
                   columns::share(needs, m_table->viewport()->width(), FailoverTableModel::Method));
}

void FailoversView::setWindowMs(qint64 ms)
{
    for (QAbstractButton* button : m_windows->buttons())
        if (button->objectName() == QStringLiteral("window%1").arg(ms))
            button->setChecked(true);
}

qint64 FailoversView::windowMs() const
{
    return m_model->windowMs();
}

QString FailoversView::summaryText() const
{
    return m_summary->text();
}

void FailoversView::updateSummary()
{
    const QString window = FailoverTableModel::windowLabel(m_model->windowMs());
    qint64 calls = 0;
    qint64 failovers = 0;
    for (int row = 0; row < m_tableProxy->rowCount(); ++row) {
        calls += m_tableProxy->index(row, FailoverTableModel::Calls).data().toLongLong();
        failovers += m_tableProxy->index(row, FailoverTableModel::Failovers).data().toLongLong();
    }
    const QString network = m_tableProxy->network();
    if (m_tableProxy->rowCount() == 0) {
        m_empty->setText(
            tr("No calls in the %1").arg(window),
            tr("Every call routed through the pool is counted here per RPC method, "
               "and every hop to another node with its cause.") +
                (network.isEmpty() ? QString() : tr(" Showing %1 only.").arg(network)));
        m_pages->setCurrentWidget(m_empty);
    } else {
        m_pages->setCurrentIndex(1);
    }
    m_summary->setText(tr("%1 failover(s) over %2 call(s) in the %3")
                           .arg(QLocale().toString(failovers), QLocale().toString(calls), window));
    m_chart->setTitle(failovers == 0 && calls > 0
                          ? tr("No failovers in the %1: every call was answered by the first "
                               "node asked")
                                .arg(window)
                          : tr("Failovers (hops to another node) per method, %1").arg(window));
}

} // namespace switchyard::ui
