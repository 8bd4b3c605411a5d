#include "metricswriter.h"

#include "histogram.h"

#include <QLocale>
#include <cmath>

namespace switchyard::metrics {

QByteArray escapeLabelValue(const QString& value)
{
    const QByteArray utf8 = value.toUtf8();
    QByteArray escaped;
    escaped.reserve(utf8.size());
    for (const char c : utf8) {
        if (c == '\\')
            escaped += "\\\\";
        else if (c == '"')
            escaped += "\\\"";
        else if (c == '\n')
            escaped += "\\n";
        else
            escaped += c;
    }
    return escaped;
}

QByteArray escapeHelp(const QString& help)
{
    QByteArray escaped = help.toUtf8();
    escaped.replace("\\", "\\\\");
    escaped.replace("\n", "\\n");
    return escaped;
}

QByteArray formatValue(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return QByteArray::number(qint64(value));
    return QString::number(value, 'g', QLocale::FloatingPointShortest).toLatin1();
}

void MetricsWriter::family(const char* name, const char* type, const QString& help)
{
    m_text += "# HELP ";
    m_text += name;
    m_text += ' ';
    m_text += escapeHelp(help);
    m_text += "\n# TYPE ";
    m_text += name;
    m_text += ' ';
    m_text += type;
    m_text += '\n';
}

void MetricsWriter::writeSeries(const char* name, const char* suffix, const Labels& labels,
                                const char* extraName, const QByteArray& extraValue)
{
    m_text += name;
    m_text += suffix;
    if (!labels.isEmpty() || extraName) {
        m_text += '{';
        bool first = true;
        for (const auto& [label, value] : labels) {
            if (!first)
                m_text += ',';
            first = false;
            m_text += label;
            m_text += "=\"";
            m_text += escapeLabelValue(value);
            m_text += '"';
        }
        if (extraName) {
            if (!first)
                m_text += ',';
            m_text += extraName;
            m_text += "=\"";
            m_text += extraValue;
            m_text += '"';
        }
        m_text += '}';
    }
    m_text += ' ';
}

void MetricsWriter::sample(const char* name, const Labels& labels, double value)
{
    writeSeries(name, "", labels);
    m_text += formatValue(value);
    m_text += '\n';
}

void MetricsWriter::sample(const char* name, const Labels& labels, qint64 value)
{
    writeSeries(name, "", labels);
    m_text += QByteArray::number(value);
    m_text += '\n';
}

void MetricsWriter::histogram(const char* name, const Labels& labels, const Histogram& histogram)
{
    const QList<double>& bounds = histogram.upperBounds();
    for (int i = 0; i < bounds.size(); ++i) {
        writeSeries(name, "_bucket", labels, "le", formatValue(bounds.at(i)));
        m_text += QByteArray::number(histogram.cumulativeCount(i));
        m_text += '\n';
    }
    writeSeries(name, "_bucket", labels, "le", QByteArrayLiteral("+Inf"));
    m_text += QByteArray::number(histogram.count());
    m_text += '\n';
    writeSeries(name, "_sum", labels);
    m_text += formatValue(histogram.sum());
    m_text += '\n';
    writeSeries(name, "_count", labels);
    m_text += QByteArray::number(histogram.count());
    m_text += '\n';
}

} // namespace switchyard::metrics
