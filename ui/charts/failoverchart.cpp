#include "failoverchart.h"

#include "appearance.h"
#include "chartstyle.h"
#include "models/failovertablemodel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFontMetrics>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace switchyard::ui::charts {

namespace {

constexpr int causeCount =
    FailoverTableModel::lastCauseColumn - FailoverTableModel::firstCauseColumn + 1;

// One fixed colour and pattern per cause, whatever the order the causes appear in.
QColor causeColor(int causeIndex)
{
    static const QList<QColor> colors = {
        QColor(0x00, 0x72, 0xb2), // transport
        QColor(0xd5, 0x5e, 0x00), // timeout
        QColor(0xe6, 0x9f, 0x00), // 429
        QColor(0xcc, 0x79, 0xa7), // 5xx
        QColor(0x00, 0x9e, 0x73), // 4xx
        QColor(0x56, 0xb4, 0xe9), // other http
        QColor(0x33, 0x33, 0x33), // malformed
        QColor(0xa5, 0x1c, 0x30), // diverged
    };
    return colors.at(causeIndex % colors.size());
}

// Black or white, whichever reads better on `fill` (WCAG relative luminance).
QColor readableOn(const QColor& fill)
{
    const auto linear = [](qreal channel) {
        return channel <= 0.03928 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
    };
    const qreal luminance = 0.2126 * linear(fill.redF()) + 0.7152 * linear(fill.greenF()) +
                            0.0722 * linear(fill.blueF());
    // Above about 0.18 black has the higher contrast, below it white.
    return luminance > 0.18 ? Qt::black : Qt::white;
}

qreal niceCeiling(qreal value)
{
    if (value <= 5)
        return 5;
    const qreal magnitude = std::pow(10.0, std::floor(std::log10(value)));
    for (const qreal step : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (value <= step * magnitude)
            return step * magnitude;
    return 10 * magnitude;
}

} // namespace

FailoverChart::FailoverChart(QAbstractItemModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(new QChartView(this))
    , m_chart(new QChart)
    , m_series(new QHorizontalStackedBarSeries(m_chart))
    , m_categories(new QBarCategoryAxis(m_chart))
    , m_values(new QValueAxis(m_chart))
{
    styleChart(m_chart);
    for (int cause = 0; cause < causeCount; ++cause) {
        auto* set = new QBarSet(
            m_model->headerData(FailoverTableModel::firstCauseColumn + cause, Qt::Horizontal)
                .toString());
        set->setBrush(patternBrush(causeColor(cause), cause));
        set->setBorderColor(Qt::white);
        set->setLabelColor(readableOn(causeColor(cause)));
        set->setLabelFont(withPointSize(set->labelFont(), 11.5, true));
        m_series->append(set);
    }
    m_chart->addSeries(m_series);
    m_chart->addAxis(m_categories, Qt::AlignLeft);
    m_chart->addAxis(m_values, Qt::AlignBottom);
    m_series->attachAxis(m_categories);
    m_series->attachAxis(m_values);
    m_series->setBarWidth(0.7);
    // Each part says its count: the bars read without telling the colours apart.
    m_series->setLabelsVisible(true);
    m_series->setLabelsFormat(QStringLiteral("@value"));
    m_series->setLabelsPosition(QAbstractBarSeries::LabelsCenter);
    styleAxis(m_categories);
    styleAxis(m_values);
    m_values->setLabelFormat(QStringLiteral("%d"));
    // No axis title: the chart's title says what is counted. Qt Charts squeezes a bottom axis
    // taller than 0.4 of the chart into "..." labels, and a laptop's short chart had no room
    // for a title under the numbers.

    m_view->setChart(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        if (barsWithRoom() != m_barRoom)
            scheduleSync();
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);

    connect(m_model, &QAbstractItemModel::rowsInserted, this, &FailoverChart::scheduleSync);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &FailoverChart::scheduleSync);
    connect(m_model, &QAbstractItemModel::modelReset, this, &FailoverChart::scheduleSync);
    connect(m_model, &QAbstractItemModel::layoutChanged, this, &FailoverChart::scheduleSync);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &FailoverChart::scheduleSync);
    sync();
}

void FailoverChart::setNetworkInLabels(bool shown)
{
    m_networkInLabels = shown;
    sync();
}

void FailoverChart::setTitle(const QString& title)
{
    m_title = title;
    sync();
}

int FailoverChart::barsWithRoom() const
{
    // Qt Charts gives each category label the axis' height divided by their number, less its
    // padding, and cuts a label taller than that to "...": a short chart (the laptop's) draws
    // the methods with the most failovers, and the table above lists them all.
    constexpr int labelPadding = 2 * 5 + 4;
    const int label = QFontMetrics(m_categories->labelsFont()).height() + labelPadding;
    const qreal height = m_chart->plotArea().height();
    return height <= 0 ? std::numeric_limits<int>::max() : std::max(1, int(height / label));
}

QStringList FailoverChart::categories() const
{
    QStringList topDown = m_categories->categories();
    std::reverse(topDown.begin(), topDown.end());
    return topDown;
}

QStringList FailoverChart::visibleCauses() const
{
    QStringList causes;
    for (QLegendMarker* marker : m_chart->legend()->markers(m_series))
        if (marker->isVisible())
            causes.append(marker->label());
    return causes;
}

qreal FailoverChart::barValue(int cause, int bar) const
{
    const QList<QBarSet*> sets = m_series->barSets();
    if (cause < 0 || cause >= sets.size() || bar < 0 || bar >= sets[cause]->count())
        return 0;
    return sets[cause]->at(sets[cause]->count() - 1 - bar);
}

void FailoverChart::scheduleSync()
{
    // A refresh announces inserts and changes one after the other: draw once, after them all.
    if (std::exchange(m_syncPending, true))
        return;
    QTimer::singleShot(0, this, &FailoverChart::sync);
}

void FailoverChart::sync()
{
    m_syncPending = false;
    // Only methods that failed over get a bar (the table lists the rest), so each bar has room
    // for its name. Horizontal bars count categories from the bottom (and bar series ignore a
    // reversed axis): rows go in last first, so the table's first row is the top bar.
    QList<int> rows;
    QStringList labels;
    qreal highest = 0;
    for (int row = m_model->rowCount() - 1; row >= 0; --row) {
        const qreal failovers = m_model->index(row, FailoverTableModel::Failovers).data().toReal();
        if (failovers <= 0)
            continue;
        const QString method = m_model->index(row, FailoverTableModel::Method).data().toString();
        const QString network = m_model->index(row, FailoverTableModel::Network).data().toString();
        labels.append(m_networkInLabels ? method + QStringLiteral(" · ") + network : method);
        rows.append(row);
        highest = std::max(highest, failovers);
    }
    m_barRoom = barsWithRoom();
    const qsizetype failedOver = rows.size();
    if (failedOver > m_barRoom) {
        // The most failovers keep their bars, in the table's order.
        QList<qreal> counts;
        for (const int row : std::as_const(rows))
            counts.append(m_model->index(row, FailoverTableModel::Failovers).data().toReal());
        QList<qreal> sorted = counts;
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        const qreal least = sorted.at(m_barRoom - 1);
        int tiesLeft = int(std::count(sorted.cbegin(), sorted.cbegin() + m_barRoom, least));
        QList<int> keptRows;
        QStringList keptLabels;
        // From the top bar down, so that ties keep the table's first rows.
        for (qsizetype bar = rows.size() - 1; bar >= 0; --bar) {
            if (counts[bar] < least || (counts[bar] == least && tiesLeft-- <= 0))
                continue;
            keptRows.prepend(rows[bar]);
            keptLabels.prepend(labels[bar]);
        }
        rows = keptRows;
        labels = keptLabels;
    }
    m_chart->setTitle(failedOver > rows.size()
                          ? tr("%1 · top %2 of %3").arg(m_title).arg(rows.size()).arg(failedOver)
                          : m_title);
    if (labels != m_categories->categories()) {
        m_categories->clear();
        m_categories->append(labels);
    }
    m_values->setRange(0, niceCeiling(highest));
    m_values->setTickCount(6);

    const QList<QBarSet*> sets = m_series->barSets();
    const QList<QLegendMarker*> markers = m_chart->legend()->markers(m_series);
    for (int cause = 0; cause < sets.size(); ++cause) {
        QBarSet* set = sets[cause];
        qreal sum = 0;
        for (int bar = 0; bar < rows.size(); ++bar) {
            const qreal value =
                m_model->index(rows[bar], FailoverTableModel::firstCauseColumn + cause)
                    .data()
                    .toReal();
            sum += value;
            if (bar < set->count()) {
                if (set->at(bar) != value)
                    set->replace(bar, value);
            } else {
                set->append(value);
            }
        }
        if (set->count() > rows.size())
            set->remove(int(rows.size()), int(set->count() - rows.size()));
        // A cause that never happened in the window only crowds the legend.
        if (cause < markers.size())
            markers[cause]->setVisible(sum > 0);
    }
}

} // namespace switchyard::ui::charts
