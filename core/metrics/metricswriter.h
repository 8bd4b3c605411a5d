#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <utility>

namespace switchyard::metrics {

class Histogram;

using Labels = QList<std::pair<const char*, QString>>;

// The Prometheus text exposition format, version 0.0.4: one # HELP and # TYPE per family, then
// its samples. Label values and help texts are escaped as the format says (backslash, double
// quote, line feed), so a node or network name from the configuration cannot break a line or
// forge a sample.
class MetricsWriter
{
public:
    static constexpr const char* contentType = "text/plain; version=0.0.4; charset=utf-8";

    void family(const char* name, const char* type, const QString& help);
    void sample(const char* name, const Labels& labels, double value);
    void sample(const char* name, const Labels& labels, qint64 value);
    // _bucket (with le, +Inf last), _sum and _count of one series of a histogram family.
    void histogram(const char* name, const Labels& labels, const Histogram& histogram);

    const QByteArray& text() const { return m_text; }

private:
    void writeSeries(const char* name, const char* suffix, const Labels& labels,
                     const char* extraName = nullptr, const QByteArray& extraValue = {});

    QByteArray m_text;
};

QByteArray escapeLabelValue(const QString& value);
QByteArray escapeHelp(const QString& help);
// Integers without a fraction, NaN and +Inf/-Inf as the format spells them.
QByteArray formatValue(double value);

} // namespace switchyard::metrics
