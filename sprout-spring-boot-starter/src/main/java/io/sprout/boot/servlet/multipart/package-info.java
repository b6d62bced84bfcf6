/**
 * Streaming {@code multipart/form-data} parsing into servlet {@code Part}s, honouring {@code
 * MultipartConfigElement} limits and spilling large parts to temporary files.
 */
package io.sprout.boot.servlet.multipart;
