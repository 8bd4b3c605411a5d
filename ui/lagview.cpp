#include "lagview.h"

#include "appearance.h"
#include "charts/lagchart.h"
#include "emptystate.h"
#include "models/fallbackstatus.h"
#include "models/lagrecorder.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

QString rangeLabel(qint64 rangeMs)
{
    const qint64 minutes = rangeMs / 60'000;
    return minutes % 60 != 0 ? LagView::tr("%1 min").arg(minutes)
                             : LagView::tr("%1 h").arg(minutes / 60);
}

} // namespace

QList<qint64> LagView::rangesMs()
{
    return {LagHistory::defaultFineSpanMs, 60 * 60 * 1000, LagHistory::defaultSpanMs};
}

LagView::LagView(PoolManager* manager, LagRecorder* recorder, QWidget* parent)
    : QWidget(parent)
    , m_manager(manager)
    , m_recorder(recorder)
    , m_rangeMs(LagHistory::defaultFineSpanMs)
    , m_ranges(new QButtonGroup(this))
    , m_layout(new QVBoxLayout(this))
    , m_empty(new EmptyState(tr("No lag history"),
                             tr("Slot and block lag of every node over the last day is drawn "
                                "here once nodes are configured and probed."),
                             this))
{
    m_layout->setContentsMargins(12, 12, 12, 8);
    m_layout->setSpacing(8);
    auto* rangeRow = new QHBoxLayout;
    auto* rangeTitle = new QLabel(tr("Range"), this);
    rangeTitle->setFont(withPointSize(font(), headerPointSize, true));
    rangeRow->addWidget(rangeTitle);
    for (const qint64 range : rangesMs()) {
        auto* button = new QPushButton(rangeLabel(range), this);
        button->setCheckable(true);
        button->setChecked(range == m_rangeMs);
        button->setFont(withPointSize(font(), headerPointSize));
        button->setMinimumHeight(button->fontMetrics().height() * 2);
        button->setObjectName(QStringLiteral("range%1").arg(range));
        m_ranges->addButton(button);
        rangeRow->addWidget(button);
        connect(button, &QPushButton::toggled, this, [this, range](bool checked) {
            if (checked)
                setRangeMs(range);
        });
    }
    rangeRow->addStretch(1);
    m_layout->addLayout(rangeRow);
    m_layout->addWidget(m_empty);
    m_throttle.setSingleShot(true);
    m_throttle.setInterval(1000);
    connect(&m_throttle, &QTimer::timeout, this, &LagView::redraw);
    m_slide.setInterval(5000);
    connect(&m_slide, &QTimer::timeout, this, &LagView::redraw);
    m_slide.start();
    connect(m_recorder, &LagRecorder::recorded, this, &LagView::scheduleRedraw);
    connect(m_manager, &PoolManager::poolsReplaced, this, &LagView::rebuild);
    rebuild();
}

void LagView::setNetwork(const QString& network)
{
    if (network == m_network)
        return;
    m_network = network;
    rebuild();
}

void LagView::setRangeMs(qint64 rangeMs)
{
    if (rangeMs == m_rangeMs)
        return;
    m_rangeMs = rangeMs;
    for (QAbstractButton* button : m_ranges->buttons())
        if (button->objectName() == QStringLiteral("range%1").arg(rangeMs))
            button->setChecked(true);
    for (charts::LagChart* chart : std::as_const(m_charts))
        chart->setRangeMs(m_rangeMs);
    Q_EMIT rangeChanged(m_rangeMs);
}

void LagView::rebuild()
{
    qDeleteAll(m_charts);
    m_charts.clear();
    for (const std::shared_ptr<NetworkPool>& pool : m_manager->pools()) {
        if (!networkMatches(m_network, pool->config().name))
            continue;
        auto* chart = new charts::LagChart(pool->config(), m_recorder, this);
        chart->setRangeMs(m_rangeMs);
        m_layout->addWidget(chart, 1);
        m_charts.append(chart);
    }
    m_empty->setVisible(m_charts.isEmpty());
}

void LagView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    redraw();
}

void LagView::scheduleRedraw()
{
    if (!m_throttle.isActive())
        m_throttle.start();
}

void LagView::redraw()
{
    if (!isVisible())
        return; // drawn when shown: the charts catch up from the history
    for (charts::LagChart* chart : std::as_const(m_charts))
        chart->redraw();
}

} // namespace switchyard::ui
