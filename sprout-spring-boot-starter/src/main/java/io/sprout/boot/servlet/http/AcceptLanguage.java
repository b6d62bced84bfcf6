package io.sprout.boot.servlet.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** Parses {@code Accept-Language} into locales by descending quality; the server's default when absent. */
final class AcceptLanguage {

    private AcceptLanguage() {
    }

    static List<Locale> parse(List<String> headerValues) {
        record Weighted(Locale locale, double quality) {
        }
        List<Weighted> weighted = new ArrayList<>();
        for (String header : headerValues) {
            for (String range : header.split(",")) {
                String[] parts = range.trim().split(";");
                String tag = parts[0].trim();
                if (tag.isEmpty() || tag.equals("*")) {
                    continue;
                }
                double quality = 1.0;
                for (int i = 1; i < parts.length; i++) {
                    String parameter = parts[i].trim();
                    if (parameter.startsWith("q=")) {
                        try {
                            quality = Double.parseDouble(parameter.substring(2));
                        } catch (NumberFormatException e) {
                            quality = 0;
                        }
                    }
                }
                if (quality > 0) {
                    weighted.add(new Weighted(Locale.forLanguageTag(tag), quality));
                }
            }
        }
        weighted.sort(Comparator.comparingDouble(Weighted::quality).reversed());
        List<Locale> locales = new ArrayList<>(weighted.size());
        weighted.forEach(w -> locales.add(w.locale()));
        if (locales.isEmpty()) {
            locales.add(Locale.getDefault());
        }
        return locales;
    }
}
