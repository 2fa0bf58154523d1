// Typed settings keys, declared next to the feature that owns them (Tiled's Preference<T>).
#pragma once

#include <QSettings>
#include <QString>
#include <QVariant>

namespace fisura::ui
{

template <class T> class Preference
{
public:
    Preference(QString key, T defaultValue)
        : key_(std::move(key)), default_(std::move(defaultValue))
    {
    }

    /// The stored value, or the default when none is stored or it does not convert to T (a
    /// hand-edited or damaged settings file must not turn a number into 0).
    T value() const
    {
        QVariant v = QSettings().value(key_);
        if (!v.isValid() || !v.convert(QMetaType::fromType<T>()))
            return default_;
        return v.template value<T>();
    }
    void setValue(const T& v) const { QSettings().setValue(key_, QVariant::fromValue(v)); }
    void reset() const { QSettings().remove(key_); }
    const QString& key() const { return key_; }
    const T& defaultValue() const { return default_; }

private:
    QString key_;
    T default_;
};

} // namespace fisura::ui
