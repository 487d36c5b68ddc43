#pragma once
// Errors raised while reading a model file: they always name the file, the JSON path of the
// offending field and the reason, so a user can fix the file without reading our source.
#include <stdexcept>
#include <string>

namespace augur::model {

class ModelError : public std::runtime_error {
 public:
  ModelError(std::string file, std::string field, std::string reason)
      : std::runtime_error(file + ": " + (field.empty() ? std::string("(document)") : field) + ": " +
                           reason),
        file_(std::move(file)),
        field_(std::move(field)),
        reason_(std::move(reason)) {}
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, field_, reason_;
};

// A query the model cannot answer (unknown operation, size outside every regime, p < 1).
class QueryError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace augur::model
